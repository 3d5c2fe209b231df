from matplotlib.colors import to_hex

from seaborn.utils import relative_luminance
from seaborn._core.level_colors import level_colors
from seaborn._core.group_stats import group_sizes
from seaborn._core.group_summary import group_intervals


def legend_entries(data, by, palette=None, order=None):
    counts = dict(group_sizes(data, by, order))
    entries = []
    for level, rgb in level_colors(data[by], palette, order):
        entries.append((f"{level} (n={counts.get(level, 0)})", to_hex(rgb)))
    return entries


def interval_table(data, value, by, which=95, palette=None, order=None):
    counts = dict(group_sizes(data, by, order))
    colors = dict(level_colors(data[by], palette, order))
    rows = []
    for level, low, high in group_intervals(data, value, by, which, order):
        rgb = colors[level]
        text = "black" if relative_luminance(rgb) > 0.408 else "white"
        rows.append({"level": str(level), "n": counts[level], "low": low, "high": high,
                     "color": to_hex(rgb), "text": text})
    return rows
