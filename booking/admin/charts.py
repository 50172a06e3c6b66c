"""Bar charts drawn on the server as inline SVG for the back-office dashboard.

No JavaScript and no third-party script: the Content-Security-Policy allows scripts only from our own
origin, and an SVG drawn here needs none. Shapes are sized with SVG presentation attributes (x, y,
width, height, fill), never `style=`, so the chart also survives a CSP without 'unsafe-inline'.
"""

from collections.abc import Sequence
from decimal import Decimal

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

Number = int | float | Decimal


def bar_chart_svg(
    values: Sequence[Number | None],
    labels: Sequence[str],
    *,
    title: str,
    value_labels: Sequence[str] | None = None,
    maximum: Number | None = None,
    highlight: int | None = None,
    width: int = 640,
    height: int = 200,
) -> SafeString:
    """One bar per value, its label below and its value above. `None` draws no bar (no data).

    `maximum` fixes the top of the scale (100 for percentages); by default the largest value.
    `highlight` is the index of a bar drawn in the accent colour (the current month).
    Every piece of text is escaped before the markup is marked safe.
    """
    if len(values) != len(labels):
        raise ValueError("one label per value")
    value_labels = list(value_labels) if value_labels is not None else ["" if v is None else str(v) for v in values]
    top = Decimal(str(maximum)) if maximum is not None else max((Decimal(str(v)) for v in values if v is not None), default=Decimal(0))
    label_band, value_band = 18, 14
    plot_height = height - label_band - value_band
    slot = width / max(len(values), 1)
    bar_width = slot * 0.7
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="dashboard-chart" viewBox="0 0 {width} {height}" '
        f'width="100%" height="{height}" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<line x1="0" y1="{value_band + plot_height}" x2="{width}" y2="{value_band + plot_height}" stroke="#999" stroke-width="1"/>',
    ]
    for index, (value, label, value_label) in enumerate(zip(values, labels, value_labels, strict=True)):
        centre = slot * index + slot / 2
        if value is not None and top > 0:
            bar_height = float(Decimal(str(value)) / top) * plot_height
            bar_height = max(0.0, min(bar_height, float(plot_height)))
            y = value_band + plot_height - bar_height
            fill = "#b3541e" if index == highlight else "#417690"
            parts.append(
                f'<rect x="{centre - bar_width / 2:.1f}" y="{y:.1f}" width="{bar_width:.1f}" height="{bar_height:.1f}" fill="{fill}">'
                f"<title>{escape(label)}: {escape(value_label)}</title></rect>"
            )
            parts.append(f'<text x="{centre:.1f}" y="{y - 3:.1f}" text-anchor="middle" font-size="10" fill="#333">{escape(value_label)}</text>')
        parts.append(f'<text x="{centre:.1f}" y="{height - 4}" text-anchor="middle" font-size="11" fill="#666">{escape(label)}</text>')
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every interpolated text above went through escape()
