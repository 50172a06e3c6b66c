"""The Alloggiati Web web service (Polizia di Stato), through zeep and the service's own WSDL
(shipped as alloggiati_service.wsdl; ALLOGGIATI_URL says where to send, so tests use a local fake).

GenerateToken, then Test the day's records, and Send only if every record passed the Test: a wrong
record is never sent. A SOAP fault or a network failure is retried by the caller; a refusal is not.
"""

from dataclasses import dataclass
from pathlib import Path

import requests
from zeep import Client
from zeep.exceptions import Error as ZeepError
from zeep.helpers import serialize_object
from zeep.transports import Transport

WSDL = Path(__file__).resolve().parent / "alloggiati_service.wsdl"
BINDING = "{AlloggiatiService}ServiceSoap"


class ServiceUnreachable(Exception):
    """A fault, a timeout or a broken answer: try again later."""


@dataclass(frozen=True)
class Outcome:
    accepted: bool
    answer: dict  # what Test (and Send) answered, as plain data
    error: str = ""


class AlloggiatiClient:
    def __init__(self, *, user: str, password: str, wskey: str, url: str, timeout: float = 30):
        self.user, self.password, self.wskey = user, password, wskey
        client = Client(str(WSDL), transport=Transport(timeout=timeout, operation_timeout=timeout))
        self.service = client.create_service(BINDING, url)

    def _call(self, operation: str, **arguments):
        try:
            return getattr(self.service, operation)(**arguments)
        except (ZeepError, requests.RequestException) as error:
            raise ServiceUnreachable(f"{operation}: {type(error).__name__}: {error}"[:400]) from error

    def token(self) -> str:
        answer = self._call("GenerateToken", Utente=self.user, Password=self.password, WsKey=self.wskey)
        if not answer.result or not answer.result.esito or not answer.GenerateTokenResult:
            raise ServiceUnreachable(f"GenerateToken refused: {_error(answer.result)}")
        return answer.GenerateTokenResult.token

    def register(self, records: list[str]) -> Outcome:
        """Test the records, then Send them if all passed."""
        token = self.token()
        schedine = {"string": records}
        tested = self._call("Test", Utente=self.user, token=token, ElencoSchedine=schedine)
        answer = {"test": serialize_object(tested, dict)}
        if not _all_valid(tested, len(records)):
            return Outcome(False, _plain(answer), f"Test refused the records: {_details(tested)}")
        sent = self._call("Send", Utente=self.user, token=token, ElencoSchedine=schedine)
        answer["send"] = serialize_object(sent, dict)
        if not _all_valid(sent, len(records), "SendResult"):
            return Outcome(False, _plain(answer), f"Send refused the records: {_details(sent)}")
        return Outcome(True, _plain(answer))


def _all_valid(answer, count: int, result: str = "TestResult") -> bool:
    overall = getattr(answer, result)
    return bool(overall and overall.esito and answer.result and answer.result.SchedineValide == count)


def _error(result) -> str:
    return f"{result.ErroreCod} {result.ErroreDes} {result.ErroreDettaglio or ''}".strip() if result else "no answer"


def _details(answer) -> str:
    rows = answer.result.Dettaglio.EsitoOperazioneServizio if answer.result and answer.result.Dettaglio else []
    problems = [f"record {i + 1}: {_error(row)}" for i, row in enumerate(rows) if row is not None and not row.esito]
    return "; ".join(problems) or _error(getattr(answer, "TestResult", None) or getattr(answer, "SendResult", None))


def _plain(value):
    """JSON-safe: zeep's answers hold dates and ordered dicts."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value if value is None or isinstance(value, bool | int | float | str) else str(value)
