"""Django's SMTP backend, told apart when a failure leaves the outcome unknown.

A mail server that has received the whole message (the final "." after DATA) but whose 250 never
arrives (a timeout, a dropped connection) may well have delivered it: sending it again would give
the guest a second copy, and an outbox retrying with backoff for two days could give many. Such a
failure raises OutcomeUnknown; booking/outbox/notifications.py then records the email as sent, unconfirmed,
and never sends it again. Any failure before that point (connect, EHLO, MAIL, RCPT, the DATA
command itself) means the server does not have the message, and it is retried as before.

settings.py puts this backend in place of django.core.mail.backends.smtp.EmailBackend.
"""

import smtplib

from django.core.mail.backends import smtp


class OutcomeUnknown(smtplib.SMTPException):
    """The message was handed to the server, which did not confirm it."""


class _TracksHandOver:
    """smtplib's data() sends the DATA command, then the message ending in CRLF.CRLF, then waits
    for the reply: a failure once that last send went out is OutcomeUnknown."""

    _handing_over = False
    _handed_over = False

    def data(self, msg):
        self._handing_over, self._handed_over = True, False
        try:
            return super().data(msg)  # type: ignore[misc]
        except (OSError, smtplib.SMTPServerDisconnected) as error:
            if self._handed_over:
                raise OutcomeUnknown(f"the server received the message but did not confirm it: {error}") from error
            raise
        finally:
            self._handing_over = False

    def send(self, s):
        super().send(s)  # type: ignore[misc]
        if self._handing_over and isinstance(s, bytes) and s.endswith(b"\r\n.\r\n"):
            self._handed_over = True


class _SMTP(_TracksHandOver, smtplib.SMTP):
    pass


class _SMTPSSL(_TracksHandOver, smtplib.SMTP_SSL):
    pass


class EmailBackend(smtp.EmailBackend):
    @property
    def connection_class(self):
        return _SMTPSSL if self.use_ssl else _SMTP
