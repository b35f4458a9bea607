"""The Today's models page's numbers (core/positional/todays_views.py), each worked out by hand from the
models' settings: which layers, how many pairs, which positions, how many numbers."""

import math

import pytest
import torch

from core.positional.rope import apply_rotary
from core.positional.todays_views import (
    answer_words,
    deepseek_scale,
    gemma3_layers,
    gemma3_wavelengths,
    heads_frame,
    kept_scores,
    last_image_token,
    nope_layers,
    pair_axes_frame,
    row_below_turns,
    small_masks,
    temperature_frame,
    vl_tokens,
    window_scores,
)


def test_llama4_scout_has_no_position_on_every_fourth_of_its_48_layers():
    assert nope_layers() == [4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48]


def test_the_temperature_steps_up_at_every_8192nd_position():
    frame = temperature_frame().set_index("position")["query factor"]
    assert frame[0] == 1.0 and frame[8190] == 1.0
    assert frame[8191] == pytest.approx(1 + 0.1 * math.log(2), abs=1e-6)
    assert frame[70_000] == pytest.approx(1 + 0.1 * math.log(9), abs=1e-6)  # ⌊70,001 / 8,192⌋ = 8


def test_a_chunked_layer_sees_less_than_a_full_one():
    masks = small_masks(12, 4)
    chunked, full = masks.values()
    assert int(full.sum()) == 12 * 13 // 2  # causal: 78 pairs
    assert int(chunked.sum()) == 3 * (4 * 5 // 2)  # three chunks of 4: 30 pairs


def test_gemma3_27b_has_ten_full_layers_and_52_sliding_ones():
    layers = gemma3_layers()
    assert len(layers) == 62 and sum(p.sees == "full" for p in layers) == 10


def test_pairs_that_turn_once_inside_gemmas_window():
    """Pair i's wavelength 2π · base^(i/64) · factor ≤ 1,024: i ≤ 64 · ln(1,024 / 2π) / ln 10,000 = 35.4
    on a sliding layer (pairs 0–35), i ≤ 64 · ln(1,024 / 8 / 2π) / ln 1,000,000 = 13.96 on a full one."""
    assert gemma3_wavelengths().turning_in_window == {"sliding layer": 36, "full layer": 14}


def test_an_images_tokens_share_t_and_count_rows_and_columns_from_where_it_starts():
    tokens = vl_tokens(["a", "b", "c"], ["d"], video=False)
    image = tokens[tokens["token"].str.startswith("image")]
    assert len(image) == 6 and set(image["t"]) == {3}  # 4 × 6 patches merged 2 × 2: 2 × 3 tokens at t = 3
    assert list(image["h"]) == [3, 3, 3, 4, 4, 4] and list(image["w"]) == [3, 4, 5, 3, 4, 5]
    assert tokens.iloc[-1][["t", "h", "w"]].tolist() == [6, 6, 6]  # 3 + max(4, 6) / 2


def test_the_bottom_right_token_of_an_image_after_three_words_is_at_3_4_5():
    assert last_image_token(["a", "b", "c"]) == (3, 4, 5)  # t = 3, row 1 → h = 3 + 1, column 2 → w = 3 + 2
    assert last_image_token(["a"]) == (1, 2, 3)


def test_a_videos_frames_are_tokens_per_second_times_seconds_apart_and_the_text_goes_on_after_it():
    """After the image (t = 3, resumed at 6) come 3 words (6-8), then 2 frames of 2 × 2 tokens from t = 9,
    2 tokens a second × 1 s apart (9, 11); the text after resumes at 9 + max(4, 4) / 2 = 11 (transformers
    5.23), the same t as the last frame."""
    tokens = vl_tokens(["a", "b", "c"], ["d"])
    video = tokens[tokens["token"].str.startswith("video,")]
    assert list(video["t"]) == [9] * 4 + [11] * 4 and list(video["h"]) == [9, 9, 10, 10] * 2
    assert tokens.iloc[-1][["t", "h", "w"]].tolist() == [11, 11, 11]


def test_qwen_vls_pairs_by_axis_and_a_row_down_turns_only_the_h_pairs():
    axes = pair_axes_frame()
    assert axes["Qwen2.5-VL 7B"].value_counts().to_dict() == {"t": 16, "h": 24, "w": 24}
    assert axes["Qwen3-VL"].value_counts().to_dict() == {"t": 24, "h": 20, "w": 20}
    assert int((row_below_turns() != 0).sum()) == 24


def test_how_much_of_each_head_turns():
    frame = heads_frame().set_index("model")
    assert frame["turned"].to_dict() == {"GPT-NeoX-20B": 24, "Phi-1.5": 32, "GLM-4 9B": 64, "DeepSeek-V3": 64}
    assert frame.loc["DeepSeek-V3", "passed through"] == 128


def test_deepseeks_scale_grows_from_one_over_root_192():
    scale, plain = deepseek_scale()
    assert plain == pytest.approx(1 / math.sqrt(192)) and scale == pytest.approx(0.135234, abs=1e-5)


def test_the_answer_says_twelve_of_48_and_each_models_number():
    words, number = answer_words()
    assert number == "12 of 48"
    for said in (
        "12 of its 48 layers",
        "52 layers with base 10,000",
        "10 with base 1,000,000",
        "64 of the 192",
    ):
        assert said in words


def test_a_sliding_layers_scores_stop_at_its_window_and_equal_the_turned_vectors():
    scores = window_scores()
    by_layer = {name: rows.set_index("distance")["score"] for name, rows in scores.frame.groupby("layer")}
    assert by_layer["sliding layer"].index.max() == 1023 and by_layer["full layer"].index.max() == 2047
    assert by_layer["sliding layer"][0] == by_layer["full layer"][0] == 1.0
    # The all-ones head of 128 turned by HF's rotation to r and to 0, its q·k over q·q: the full layer's
    # base 1,000,000 with positions divided by 8, the sliding layer's base 10,000. The page's frequencies
    # are float32, as transformers' (test_layer_plans), these float64: up to r = 1,023 they part by < 1e-6.
    ones = torch.ones(2, 128, dtype=torch.float64)
    for name, base, factor in (("sliding layer", 10_000.0, 1.0), ("full layer", 1_000_000.0, 8.0)):
        for r in (1, 100, 1023):
            q, k = apply_rotary(ones, torch.tensor([r / factor, 0.0], dtype=torch.float64), base, False)
            assert by_layer[name][r] == pytest.approx(float(q @ k) / 128, abs=1e-6)
    assert scores.at_edge == {name: by_layer[name][1023] for name in by_layer}
    assert scores.past == by_layer["full layer"][2047]


def test_the_numbers_that_pass_through_keep_their_share_of_the_score():
    kept = kept_scores(64)
    by_head = {name: rows.set_index("distance")["score"] for name, rows in kept.frame.groupby("head")}
    full, neox, deepseek = (
        by_head["all 96 turn (RoPE)"],
        by_head["GPT-NeoX-20B: 24 of 96 turn"],
        by_head["DeepSeek-V3: 64 of 192 turn"],
    )
    assert full[0] == neox[0] == deepseek[0] == pytest.approx(1.0, abs=1e-15)
    # Worked by hand at r = 1: 72 of 96 numbers pass, 12 pairs turn by θᵢ = 10000^(−2i/24); DeepSeek-V3:
    # 128 of 192 pass, 32 pairs turn by θᵢ = 10000^(−2i/64).
    neox_1 = (72 + sum(2 * math.cos(10_000 ** (-2 * i / 24)) for i in range(12))) / 96
    deepseek_1 = (128 + sum(2 * math.cos(10_000 ** (-2 * i / 64)) for i in range(32))) / 192
    assert neox[1] == pytest.approx(neox_1, abs=1e-12) and deepseek[1] == pytest.approx(deepseek_1, abs=1e-12)
    assert min(neox) >= 0.5 and min(deepseek) >= 1 / 3  # the passed share, less at most the turned one
    assert kept.lowest == {name: min(rows) for name, rows in by_head.items()}
    assert min(full) < min(neox)
