"""A rating history as an inline SVG polyline: points computed here, drawn by the template,
no JavaScript."""

WIDTH, HEIGHT, PAD = 320, 120, 8


def polyline(values: list[float], *, width: int = WIDTH, height: int = HEIGHT, pad: int = PAD) -> dict | None:
    """Points for values in order, left to right, the highest at the top. A flat or short
    history still gets a visible range of at least one rating point."""
    if not values:
        return None
    low, high = min(values), max(values)
    if high - low < 1:
        middle = (high + low) / 2
        low, high = middle - 0.5, middle + 0.5
    inner_w, inner_h = width - 2 * pad, height - 2 * pad
    last = max(len(values) - 1, 1)

    def x(i):
        return pad + inner_w * i / last if len(values) > 1 else width / 2

    def y(v):
        return pad + inner_h * (high - v) / (high - low)

    points = [(x(i), y(v)) for i, v in enumerate(values)]
    zero = y(0) if low <= 0 <= high else None
    return {"width": width, "height": height, "pad": pad, "right": width - pad,
            "points": " ".join(f"{px:.1f},{py:.1f}" for px, py in points),
            "end_x": f"{points[-1][0]:.1f}", "end_y": f"{points[-1][1]:.1f}",
            "zero_y": None if zero is None else f"{zero:.1f}",
            "low": min(values), "high": max(values), "first": values[0], "last": values[-1],
            "games": len(values) - 1}
