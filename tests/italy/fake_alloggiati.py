"""A local fake of the Alloggiati Web service: an HTTP server answering the SOAP operations of the
service's WSDL (booking/italy/alloggiati_service.wsdl) with envelopes of its schema, so the real
zeep client parses them. `script` decides each answer: "ok", "refuse" (Test marks record 1 wrong)
or "fault" (a SOAP fault)."""

import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ENVELOPE = (
    '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>{}</soap:Body></soap:Envelope>'
)
FAULT = "<soap:Fault><faultcode>soap:Server</faultcode><faultstring>Server was unable to process request.</faultstring></soap:Fault>"
OK = "<esito>true</esito>"


def esito(ok: bool, code="", text="") -> str:
    return f"<esito>{'true' if ok else 'false'}</esito><ErroreCod>{code}</ErroreCod><ErroreDes>{text}</ErroreDes><ErroreDettaglio></ErroreDettaglio>"


class FakeAlloggiati:
    def __init__(self):
        self.calls: list[tuple[str, str]] = []  # (operation, request body)
        self.script: dict[str, list[str]] = {}
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"])).decode()
                operation = self.headers.get("SOAPAction", "").strip('"').rpartition("/")[2]
                fake.calls.append((operation, body))
                behaviour = (fake.script.get(operation) or ["ok"]).pop(0) if fake.script.get(operation) else "ok"
                status, answer = 200, fake.answer(operation, behaviour, len(re.findall(r"<(?:\w+:)?string>", body)))
                if behaviour == "fault":
                    status, answer = 500, FAULT
                payload = ENVELOPE.format(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/xml; charset=utf-8")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/service/service.asmx"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def answer(self, operation: str, behaviour: str, records: int) -> str:
        ns = 'xmlns="AlloggiatiService"'
        if operation == "GenerateToken":
            return f"<GenerateTokenResponse {ns}><GenerateTokenResult><issued>2026-06-01T10:00:00</issued><expires>2026-06-01T18:00:00</expires><token>TOKEN-1</token></GenerateTokenResult><result>{esito(True)}</result></GenerateTokenResponse>"
        valid = records - 1 if behaviour == "refuse" else records
        details = "".join(
            f"<EsitoOperazioneServizio>{esito(False, 'ERR', 'Comune di nascita errato') if behaviour == 'refuse' and i == 0 else esito(True)}</EsitoOperazioneServizio>"
            for i in range(records)
        )
        overall = esito(behaviour != "refuse", "", "")
        return f"<{operation}Response {ns}><{operation}Result>{overall}</{operation}Result><result><SchedineValide>{valid}</SchedineValide><Dettaglio>{details}</Dettaglio></result></{operation}Response>"

    def operations(self) -> list[str]:
        return [operation for operation, _body in self.calls]

    def close(self):
        self.server.shutdown()
        self.server.server_close()
