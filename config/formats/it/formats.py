# The back office shows dates one way, in the reader's language: "12 Feb 2027", "12 Feb 2027 14:32"
# (config/formats/__init__.py). Every other format is Django's own for the language.
DATE_FORMAT = "d M Y"
DATETIME_FORMAT = "d M Y H:i"
