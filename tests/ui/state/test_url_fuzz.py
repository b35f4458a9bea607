"""Fuzzing the address bar: hundreds of hostile URLs over every page, 0 tracebacks.

Each case opens a fresh session at one page with a few URL parameters, as a pasted link does. The
cases are a seeded shuffle of every setting's key × every value no setting may take, grouped one to eight
to a URL and dealt over the pages (Families under every method), plus odd values that are valid,
repeated keys, keys that are no setting and over-long sentences. Wherever a value is refused, a
warning must name its parameter; wherever one is valid, none may.
"""

import random

import pytest

from core.positional.family import FAMILIES
from core.views.markup import escape_markdown
from ui.navigation import PAGES
from ui.state.url_params import MAX_SENTENCE_CHARS, NUMBER, SLIDE, WHOLE, accepted

# Written out, not derived from ui.state.url_params: what no setting of any kind may take.
NEVER = [
    "inf",
    "-inf",
    "+inf",
    "Infinity",
    "nan",
    "NaN",
    "1e309",
    "-1e309",
    "0x10",
    "0b101",
    "１２",  # full-width digits: int() reads them, a link must not
    "٣",  # Arabic-Indic three
    "1_000",
    "",
    " ",
    "abc",
    "**x**",
    "$x$",
    "<b>x</b>",
    "4,5",
    "--4",
    "4e",
    "\x00",
]
NOT_WHOLE = ["4.0", "1.5", "1e3", "99999999999999999999999", "-9007199254740992"]  # also refused for WHOLE
NOT_OPTION = ["3", "TRUE", "Rope", " rope"]  # also refused for a choice (none of these is an option)
# Valid for every number: the page may explain a range with st.error, but no URL warning.
ODD_WHOLE = [" 4 ", "+8", "007", "-1", "0", "9007199254740991", "-9007199254740991", "2147483648"]
NOT_SLIDE = ["0", "3.0", "0.2", "3.2.1", "-1", "+3", "3.", ".2", "99999"]  # also refused for the slide
# Valid for the slide: one past the last is the last, a slide of a page with fewer parts its last part.
ODD_SLIDE = [" 2 ", "007", "9999", "2.9999", "1.1"]
ODD_NUMBER = ["1e308", "-1e308", ".5", "5.", "+2E3", " 10 ", "0", "-3", "99999999999999999999999"]

SIMPLE_PAGES = [path for path, *_ in PAGES if path != "pages/Families.py"]
TARGETS = [(path, None) for path in SIMPLE_PAGES] + [("pages/Families.py", m) for m in FAMILIES]


def refused_values(kind) -> list[str]:
    if kind == SLIDE:
        return NEVER + NOT_SLIDE
    if kind == WHOLE:
        return NEVER + NOT_WHOLE
    return NEVER if kind == NUMBER else NEVER + NOT_OPTION


def cases() -> list[tuple[str, str | None, list[tuple[str, object, str]]]]:
    """(page, Families' method, [(key, value, "refused" | "valid" | "repeated" | "unknown" | "long")])."""
    rng = random.Random(14)
    kinds = accepted()
    pairs = [(k, v, "refused") for k, kind in kinds.items() for v in refused_values(kind)]
    pairs += [(k, v, "valid") for k, kind in kinds.items() if kind == WHOLE for v in ODD_WHOLE]
    pairs += [(k, v, "valid") for k, kind in kinds.items() if kind == NUMBER for v in ODD_NUMBER]
    pairs += [(k, v, "valid") for k, kind in kinds.items() if kind == SLIDE for v in ODD_SLIDE]
    pairs += [(k, ["inf", rng.choice(ODD_WHOLE)], "repeated") for k, kind in kinds.items() if kind == WHOLE]
    pairs += [(k, ["abc", "4", "nan"], "repeated") for k in kinds]
    pairs += [(k, "1", "unknown") for k in ("zzz", "Dim", "dim ", "**x**", "vocab_size", "a" * 300)]
    pairs += [(k, "\U0001f600" * n, "long") for k in ("a", "b") for n in (MAX_SENTENCE_CHARS + 1, 5000)]
    rng.shuffle(pairs)
    out, k = [], 0
    while k < len(pairs):
        size = rng.randint(1, 8)  # one to eight settings a URL: every pair is still tried
        group, seen = [], set()
        for key, value, label in pairs[k : k + size]:
            if key in seen or (key == "method" and label == "valid"):
                break  # one value per key and URL (a repeated key is its own case)
            group.append((key, value, label))
            seen.add(key)
        k += max(len(group), 1)
        page, method = TARGETS[len(out) % len(TARGETS)]
        out.append((page, method, group))
    # One page after the other: the caches a page fills stay warm for its next case.
    return sorted(out, key=lambda case: TARGETS.index(case[:2]))


CASES = cases()


def test_there_are_at_least_300_cases_over_every_page():
    assert len(CASES) >= 300
    assert {(page, method) for page, method, _ in CASES} == set(TARGETS)


@pytest.mark.slow
@pytest.mark.parametrize(
    "page, method, params", CASES, ids=[f"{p[6:-3]}-{m or ''}-{i}" for i, (p, m, _) in enumerate(CASES)]
)
def test_a_hostile_url_gets_messages_never_a_traceback(page, method, params, open_page):
    url = {key: value for key, value, _ in params}
    if method is not None and "method" not in url:
        url["method"] = method
    at = open_page(page, **url)
    assert not at.exception, [e.value for e in at.exception]
    warnings = " ".join(w.value for w in at.warning)
    for key, value, label in params:
        named = f"**{escape_markdown(key[:40] + ('…' if len(key) > 40 else ''))}**" in warnings
        if label == "valid":
            assert not named, (key, value, warnings)
        else:
            assert named, (key, value, label, warnings)
        if label == "repeated":
            assert f"is given {len(value)} times" in warnings
        if label == "long":
            assert f"has {len(value):,} characters" in warnings
        if label != "valid":
            assert key not in at.query_params or at.query_params[key] != value
