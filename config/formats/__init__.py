"""One date format for every reader (settings.FORMAT_MODULE_PATH): Django's default `DATE_FORMAT`
and `DATETIME_FORMAT`, which the admin uses for every date and time field it shows, are "d M Y" and
"d M Y H:i" in each language, as the back office's own times are (booking.admin_display.local_time,
the templates' `|date:"d M Y H:i T"`): the day, the month's short name in the reader's language,
the year. The guest site writes its dates with explicit formats (booking.formatting.format_date)."""
