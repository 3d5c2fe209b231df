"""Grouped legend entries and per-group summary table."""
from matplotlib.colors import to_hex

from seaborn.utils import to_utf8
from seaborn._core.level_colors import level_colors, label_colors
from seaborn._core.group_stats import group_sizes
from seaborn._core.group_summary import group_intervals


def legend_entries(data, by, palette=None, order=None):
    sizes = dict(group_sizes(data, by, order))
    return [
        (f"{to_utf8(level)} (n={sizes.get(level, 0)})", to_hex(rgb))
        for level, rgb in level_colors(data[by], palette, order)
    ]


def interval_table(data, value, by, which=95, palette=None, order=None):
    sizes = dict(group_sizes(data, by, order))
    colors = dict(level_colors(data[by], palette, order))
    text = dict(label_colors(data[by], palette, order))
    return [
        {
            "level": to_utf8(level),
            "n": sizes[level],
            "low": low,
            "high": high,
            "color": to_hex(colors[level]),
            "text": text[level],
        }
        for level, low, high in group_intervals(data, value, by, which, order)
    ]
