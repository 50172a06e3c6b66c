"""A malformed A2A envelope is logged as one warning line without a traceback (issue 31, item 3)."""

import logging

from discovery.sdk_logs import A2A_DISPATCHER


def test_a_parse_failure_is_a_one_line_warning(caplog):
    try:
        try:
            int("x")
        except ValueError as inner:
            raise RuntimeError("Failed to parse messageId field: expected string, got 'int'.") from inner
    except RuntimeError:
        with caplog.at_level(logging.INFO, logger=A2A_DISPATCHER):
            logging.getLogger(A2A_DISPATCHER).exception("Failed to parse request params")
    [record] = caplog.records
    assert record.levelname == "WARNING" and record.exc_info is None
    assert record.getMessage() == "Failed to parse request params: Failed to parse messageId field: expected string, got 'int'."


def test_other_errors_of_the_sdk_are_left_alone(caplog):
    with caplog.at_level(logging.INFO, logger=A2A_DISPATCHER):
        logging.getLogger(A2A_DISPATCHER).error("Something else broke")
    assert [record.levelname for record in caplog.records] == ["ERROR"]
