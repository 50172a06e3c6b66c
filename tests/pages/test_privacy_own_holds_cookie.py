"""The privacy page names the `own_holds` cookie (booking/api/own_holds.py, docs/own-holds.md): what it
holds, how long it lasts, that it is strictly necessary; beside the other cookie text, in every
language of the site, with the numbers the code uses."""

import pytest

from booking.api import own_holds

pytestmark = pytest.mark.django_db

MINUTES = own_holds.MAX_AGE_SECONDS // 60


@pytest.mark.parametrize(
    "prefix, words",
    [
        ("", ["holds only the reference numbers of the holds made in this browser", f"It lasts {MINUTES} minutes", "strictly necessary"]),
        ("/it", ["Contiene solo i numeri di riferimento dei blocchi", f"Dura {MINUTES} minuti", "strettamente necessario"]),
        ("/de", ["Es enthält nur die Referenznummern", f"Es gilt {MINUTES} Minuten", "unbedingt erforderlich"]),
        ("/fr", ["Il ne contient que les numéros de référence", f"Il dure {MINUTES} minutes", "strictement nécessaire"]),
    ],
)
def test_the_privacy_page_names_the_own_holds_cookie(client, site, prefix, words):
    html = client.get(f"{prefix}/privacy").content.decode()
    paragraph = html.split("<p data-privacy-own-holds>")[1].split("</p>")[0]
    assert f"<code>{own_holds.COOKIE}</code>" in paragraph and f"{own_holds.KEPT})" in paragraph
    for text in words:
        assert text in paragraph, (prefix, text)
    [section] = [part for part in html.split("<h2>") if "data-privacy-own-holds" in part]
    assert section.count("<p") == 2 and section.index("<p>") < section.index("<p data-privacy-own-holds>"), "after the existing cookie text"
