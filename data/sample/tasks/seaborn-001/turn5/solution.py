from matplotlib.colors import to_hex

from seaborn.utils import to_utf8
from seaborn._core.level_colors import level_colors, label_colors
from seaborn._core.group_stats import group_sizes
from seaborn._core.group_summary import group_intervals


def legend_entries(data, by, palette=None, order=None):
    """One (label, hex color) pair per level: label is "<level> (n=<count>)"."""
    sizes = dict(group_sizes(data, by, order))
    result = []
    for level, rgb in level_colors(data[by], palette, order):
        label = f"{to_utf8(level)} (n={sizes.get(level, 0)})"
        result.append((label, to_hex(rgb)))
    return result


def interval_table(data, value, by, which=95, palette=None, order=None):
    """One row dict per level with data: level, n, low, high, color (hex) and text color."""
    sizes = dict(group_sizes(data, by, order))
    colors = dict(level_colors(data[by], palette, order))
    text = dict(label_colors(data[by], palette, order))
    rows = []
    for level, low, high in group_intervals(data, value, by, which, order):
        rows.append({
            "level": to_utf8(level),
            "n": sizes[level],
            "low": low,
            "high": high,
            "color": to_hex(colors[level]),
            "text": text[level],
        })
    return rows
