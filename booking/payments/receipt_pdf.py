"""A payment receipt as a PDF (fpdf2: pure Python, installs from PyPI on any machine, no system
libraries or fonts needed; docs/money.md says why). Pure: plain data in, bytes out.

The built-in Helvetica is written with WinAnsiEncoding (cp1252), which holds Italian, German and
French and also "€", typographic dashes and quotes: amounts read as in the guest's other documents
("€1,234.50", "1.234,50 €"; booking/formatting.py). The few characters outside it (the narrow
no-break space French puts before "€", anything exotic in a name) become a plain space or "?".
"""

from dataclasses import dataclass

from fpdf import FPDF

ENCODING = "windows-1252"  # what fpdf2 writes core fonts in (WinAnsiEncoding)
PLAIN = str.maketrans({"\u202f": "\u00a0"})


def plain(text: str) -> str:
    return text.translate(PLAIN).encode(ENCODING, "replace").decode(ENCODING)


@dataclass(frozen=True)
class ReceiptDocument:
    """Every word already translated and every amount already formatted (booking/payments/services/receipts.py)."""

    title: str
    issued: str
    host_lines: list[str]
    guest_lines: list[str]
    stay_lines: list[str]
    price_lines: list[tuple[str, str]]  # (label, amount): the breakdown, the total last
    payment_lines: list[tuple[str, str]]  # this payment, paid so far, still due
    notes: list[str]


def render(document: ReceiptDocument) -> bytes:
    pdf = FPDF(format="A4")
    pdf.core_fonts_encoding = ENCODING
    pdf.set_title(plain(document.title))
    pdf.set_creator("booking")
    pdf.add_page()
    pdf.set_font("helvetica", "B", 16)
    pdf.cell(0, 10, plain(document.title), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("helvetica", "", 10)
    pdf.cell(0, 6, plain(document.issued), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    for block in (document.host_lines, document.guest_lines, document.stay_lines):
        for index, line in enumerate(block):
            pdf.set_font("helvetica", "B" if index == 0 else "", 10)
            pdf.multi_cell(0, 5, plain(line), new_x="LMARGIN", new_y="NEXT")
        pdf.ln(3)
    for rows, bold_last in ((document.price_lines, True), (document.payment_lines, False)):
        for index, (label, amount) in enumerate(rows):
            pdf.set_font("helvetica", "B" if (bold_last and index == len(rows) - 1) or (not bold_last and index == 0) else "", 10)
            pdf.cell(130, 6, plain(label))
            pdf.cell(0, 6, plain(amount), align="R", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(3)
    pdf.set_font("helvetica", "", 8)
    for note in document.notes:
        pdf.multi_cell(0, 4, plain(note), new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())
