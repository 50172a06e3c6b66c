"""Owner-written Markdown becomes HTML without any way to run script on the site."""

from pages.models import FaqEntry
from pages.rendering import render_markdown


def test_markdown_becomes_html():
    html = render_markdown("## Arrival\n\n**Bring** an [ID](/faq).\n\n- one\n- two")
    assert "<h2>Arrival</h2>" in html
    assert "<strong>Bring</strong>" in html
    assert '<a href="/faq" rel="noopener noreferrer">ID</a>' in html
    assert "<li>one</li>" in html


def test_script_elements_are_removed_with_their_content():
    html = render_markdown("Hello <script>alert('x')</script> world")
    assert "<script" not in html
    assert "alert" not in html
    assert "Hello" in html and "world" in html


def test_event_handler_attributes_are_removed():
    html = render_markdown('<img src="/static/x.svg" onerror="alert(1)" alt="x"> <a href="/faq" onclick="steal()">faq</a> <p onmouseover="x()">p</p>')
    assert "onerror" not in html
    assert "onclick" not in html
    assert "onmouseover" not in html
    assert 'src="/static/x.svg"' in html


def test_javascript_and_data_links_are_removed():
    html = render_markdown(
        '[click](javascript:alert(1)) <a href="JaVaScRiPt:alert(2)">two</a> [data](data:text/html;base64,PHNjcmlwdD4=) <a href="vbscript:x">v</a>'
    )
    assert "javascript" not in html.lower()
    assert "data:" not in html
    assert "vbscript" not in html
    assert "click" in html


def test_styles_frames_and_forms_are_removed():
    html = render_markdown(
        '<style>body{display:none}</style><iframe src="https://evil.example"></iframe><form action="https://evil.example"><input name="card"></form><p style="position:fixed">x</p>'
    )
    for dangerous in ["<style", "<iframe", "<form", "<input", "style="]:
        assert dangerous not in html


def test_safe_links_are_kept():
    html = render_markdown("[mail](mailto:stay@example.com) [call](tel:+390550000000) [site](https://example.com/a?b=1)")
    assert 'href="mailto:stay@example.com"' in html
    assert 'href="tel:+390550000000"' in html
    assert 'href="https://example.com/a?b=1"' in html


def test_empty_text_renders_nothing():
    assert render_markdown("") == ""


def test_pages_render_owner_markdown_through_the_sanitiser(client, site):
    FaqEntry.objects.create(question="Is it safe?", answer="Yes <script>document.title='pwned'</script>[x](javascript:alert(1))", position=0)
    page = client.get("/faq").content.decode()
    assert "document.title='pwned'" not in page
    assert "javascript:alert" not in page
