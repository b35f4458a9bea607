"""Loss at each position, inside and past the trained length: how each trained method extrapolates.

Every finished run keeps its validation loss position by position (``TrainResult.loss_by_position``):
in windows of 2T, or of T for a learned table, which has no row for position T or later. One chart
puts the methods side by side, with the trained length marked.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from core.positional.family import FAMILIES, Family
from core.training.training import TrainResult
from core.views.charts import LINE_KEY
from core.views.describe import described, lines_description
from core.views.units import listing


def line_label(method: str, context_length: int) -> str:
    """A method's line in the chart's legend: its label, and for a learned table the windows it is read
    in (of T: it cannot run a window of 2T)."""
    family = FAMILIES[method]
    return f"{family.label} (windows of {context_length})" if family.fixed_length else family.label


def position_loss_frame(results: dict[str, TrainResult | None], context_length: int) -> pd.DataFrame:
    """One row per method and position of each finished run: columns method (its ``line_label``),
    position, loss."""
    rows = [
        {"method": line_label(method, context_length), "position": k, "loss": loss}
        for method, result in results.items()
        if result is not None
        for k, loss in enumerate(result.loss_by_position)
    ]
    return pd.DataFrame(rows, columns=["method", "position", "loss"])


def position_loss_title(families: list[Family], context_length: int) -> str:
    """The chart's title for the ``families`` it draws: the windows each is read in, as its legend says."""
    T, fixed = context_length, [f.label for f in families if f.fixed_length]
    if fixed and len(fixed) == len(families):  # only a learned table: its own windows, of T
        title = f"Validation loss at each position of {listing(fixed)}, in windows of {T}"
        return f"{title}: a window of {2 * T} cannot run"
    title = f"Validation loss at each position, in windows of {2 * T} (twice the trained length)"
    return f"{title}; {listing(fixed)} in windows of {T}" if fixed else title


def position_loss_chart(
    frame: pd.DataFrame, context_length: int, height: int = 300, findings: list[str] | None = None
) -> alt.LayerChart:
    """Each method's loss against position, in its family's colour and dash, with a dashed rule at T.

    ``findings``: the page's sentences on it (``extrapolation_sentences``), which a screen reader says for
    the chart (default: each line's course, from the frame).
    """
    styles = {line_label(name, context_length): f for name, f in FAMILIES.items()}
    methods = list(dict.fromkeys(frame["method"]))
    color = alt.Color(
        "method:N",
        title="method",
        scale=alt.Scale(domain=methods, range=[styles[m].color for m in methods]),
    )
    dash = alt.StrokeDash(
        "method:N",
        title="method",
        scale=alt.Scale(domain=methods, range=[list(styles[m].dash) for m in methods]),
        legend=alt.Legend(labelLimit=260, **LINE_KEY),
    )
    title = position_loss_title([styles[m] for m in methods], context_length)
    said = findings or [lines_description(title, frame, "position", "loss", "method")]
    rule_at = f"A dashed line marks the trained length T = {context_length}."
    lines = (
        alt.Chart(frame, title=title, height=height)
        .mark_line(strokeWidth=2)
        .encode(
            x=alt.X("position:Q", title="position in the window"),
            y=alt.Y("loss:Q", title="loss", scale=alt.Scale(zero=False)),
            color=color,
            strokeDash=dash,
            tooltip=["method:N", "position:Q", alt.Tooltip("loss:Q", format=".3f")],
        )
    )
    rule = (
        alt.Chart(pd.DataFrame({"position": [context_length - 0.5]}))
        .mark_rule(strokeDash=[6, 4], color="#6b7280", aria=False)
        .encode(x="position:Q")
    )
    return described(alt.layer(lines, rule), " ".join([*said, rule_at]))


def extrapolation_sentences(results: dict[str, TrainResult | None], context_length: int) -> list[str]:
    """One sentence per finished method on its loss past T, from its numbers."""
    T, out = context_length, []
    for method, result in results.items():
        if result is None or not result.loss_by_position:
            continue
        loss = result.loss_by_position
        label = FAMILIES[method].label
        inside = sum(loss[:T]) / len(loss[:T])
        if len(loss) <= T:
            out.append(
                f"{label} stops at position {T - 1}: its table has no row for {T}, so it cannot run a "
                f"window of {2 * T} at all; its line is its loss in windows of {T}, its own length (mean "
                f"{inside:.3f})."
            )
            continue
        past = sum(loss[T:]) / len(loss[T:])
        said = trend(inside, past)
        out.append(f"{label}: mean {inside:.3f} at positions 0 … {T - 1}, {past:.3f} past them: it {said}.")
    return out


LEVEL = 0.01  # a mean loss that moves less than this past the trained length stays about the same


def trend(inside: float, past: float) -> str:
    """What a loss does past the trained length, from its mean ``inside`` and ``past`` it: "rises",
    "falls" or "stays about the same"."""
    if abs(past - inside) < LEVEL:
        return "stays about the same"
    return "rises" if past > inside else "falls"


def past_length_caption(context_length: int, chart: bool | None) -> str:
    """The sentences that join the comparison table's cells, the chart and its legend on a learned table,
    which cannot run a window of 2T. ``chart``: whether the chart is drawn below (a run has finished);
    None where it is never drawn (presenting, where the table is the section)."""
    T = context_length
    learned = listing(
        [f.label for f in FAMILIES.values() if f.trainable and f.fixed_length]
    )  # Learned absolute
    line = f"its loss in windows of {T}, its own length, ending at position {T - 1}"
    where = {True: f", and its line on the chart below is {line}", None: ""}.get(
        chart, f", and its line on the chart (drawn once a run has finished) is {line}"
    )
    return (
        f"Past the trained length: each model reads windows of {2 * T} tokens, twice the {T} it trained on. "
        f"A learned table has rows for positions 0 … {T - 1} only, so {learned} cannot run a window of "
        f"{2 * T}, not even its first {T} positions: both of its cells for windows of {2 * T} say “cannot "
        f"run a window of {2 * T}”{where}. The others can: the column for positions ≥ {T} says how well. "
        f"A later position sees more tokens before it, which by itself makes its next token easier to "
        f"guess: a loss that rises past position {T - 1} rises in spite of that."
    )
