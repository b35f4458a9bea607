"""M-RoPE (core/positional/mrope.py) against transformers 5.23: Qwen2-VL's and Qwen2.5-VL's
``get_rope_index`` on text, images and videos, and Qwen2-VL's and Qwen3-VL's recomposed cos and sin."""

import pytest
import torch

from core.positional.mrope import (
    QWEN2_VL_SECTION,
    QWEN3_VL_SECTION,
    Segment,
    mrope_angles,
    mrope_positions,
    pair_axes,
)
from core.positional.rope import rope_inv_freq

pytest.importorskip("transformers")
from transformers import Qwen2_5_VLConfig, Qwen2VLConfig, Qwen3VLTextConfig  # noqa: E402
from transformers.models.qwen2_5_vl.modeling_qwen2_5_vl import Qwen2_5_VLModel  # noqa: E402
from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLModel, Qwen2VLRotaryEmbedding  # noqa: E402
from transformers.models.qwen3_vl.modeling_qwen3_vl import Qwen3VLTextRotaryEmbedding  # noqa: E402

TINY = {  # a model too small to mean anything: get_rope_index reads only the merge and tokens_per_second
    "hidden_size": 16,
    "num_hidden_layers": 1,
    "num_attention_heads": 2,
    "num_key_value_heads": 1,
    "intermediate_size": 16,
    "vocab_size": 64,
    "bos_token_id": None,
    "eos_token_id": None,
}
VISION = {"depth": 1, "hidden_size": 16, "num_heads": 2, "spatial_merge_size": 2}
KINDS = {"text": 0, "image": 1, "video": 2}
INPUTS = {  # (segments), several grids, text before, between and after
    "one image": [Segment("text", 3), Segment("image", grid=(1, 4, 6)), Segment("text", 2)],
    "two images": [
        Segment("image", grid=(1, 8, 4)),
        Segment("text", 1),
        Segment("image", grid=(1, 2, 2)),
        Segment("text", 4),
    ],
    "a video": [Segment("text", 2), Segment("video", grid=(3, 4, 4), seconds=0.5), Segment("text", 3)],
    "image and video": [
        Segment("text", 1),
        Segment("image", grid=(1, 6, 6)),
        Segment("video", grid=(4, 2, 4), seconds=2.0),
        Segment("text", 2),
    ],
}


@pytest.fixture(scope="module")
def qwen2_vl():
    config = Qwen2VLConfig(text_config=TINY, vision_config={**VISION, "embed_dim": 16, "mlp_ratio": 1})
    return Qwen2VLModel(config)


@pytest.fixture(scope="module")
def qwen2_5_vl():
    vision = {**VISION, "intermediate_size": 16, "out_hidden_size": 16, "tokens_per_second": 2}
    return Qwen2_5_VLModel(Qwen2_5_VLConfig(text_config=TINY, vision_config=vision))


def _their_positions(model, segments: list[Segment], seconds: bool = False) -> torch.Tensor:
    kinds = []
    for s in segments:
        tokens = s.tokens if s.kind == "text" else s.grid[0] * (s.grid[1] // 2) * (s.grid[2] // 2)
        kinds += [KINDS[s.kind]] * tokens
    grids = {k: [s.grid for s in segments if s.kind == k] for k in ("image", "video")}
    given = {f"{k}_grid_thw": torch.tensor(v) for k, v in grids.items() if v}
    if seconds and grids["video"]:
        given["second_per_grid_ts"] = torch.tensor([s.seconds for s in segments if s.kind == "video"])
    ids = torch.zeros(1, len(kinds), dtype=torch.long)
    positions, _ = model.get_rope_index(ids, torch.tensor([kinds]), **given)
    return positions[:, 0]


@pytest.mark.parametrize("name", INPUTS)
def test_qwen2_vls_positions_are_get_rope_index(name, qwen2_vl):
    assert torch.equal(mrope_positions(INPUTS[name]), _their_positions(qwen2_vl, INPUTS[name]))


@pytest.mark.parametrize("name", INPUTS)
def test_qwen2_5_vls_positions_are_get_rope_index(name, qwen2_5_vl):
    ours = mrope_positions(INPUTS[name], tokens_per_second=2)
    assert torch.equal(ours, _their_positions(qwen2_5_vl, INPUTS[name], seconds=True))


def test_an_images_patches_get_start_plus_row_and_column_and_the_text_goes_on_after_it():
    """Known values: 2 text tokens, a 4 × 6 patch image (2 × 3 tokens after the 2 × 2 merge), 1 token."""
    positions = mrope_positions([Segment("text", 2), Segment("image", grid=(1, 4, 6)), Segment("text", 1)])
    t, h, w = positions.tolist()
    assert t == [0, 1] + [2] * 6 + [5]  # the text after it: 2 + max(4, 6) / 2 = 5
    assert h == [0, 1] + [2, 2, 2, 3, 3, 3] + [5]
    assert w == [0, 1] + [2, 3, 4, 2, 3, 4] + [5]


def test_qwen2_5_vl_spaces_a_videos_frames_by_tokens_per_second_times_seconds():
    positions = mrope_positions([Segment("video", grid=(3, 2, 2), seconds=2.0)], tokens_per_second=2)
    assert positions[0].tolist() == [0, 4, 8] and positions[1:].tolist() == [[0, 0, 0], [0, 0, 0]]


def test_qwen2_vls_pairs_follow_t_then_h_then_w():
    axes = pair_axes(QWEN2_VL_SECTION)
    assert axes.tolist() == [0] * 16 + [1] * 24 + [2] * 24


def test_qwen3_vls_pairs_take_turns():
    axes = pair_axes(QWEN3_VL_SECTION, interleaved=True)
    assert axes[:6].tolist() == [0, 1, 2, 0, 1, 2] and len(axes) == 64
    assert (axes == 1).sum() == 20 and (axes == 2).sum() == 20 and axes[60:].tolist() == [0] * 4


def _cos_sin(angles: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    doubled = torch.cat((angles, angles), dim=-1)
    return doubled.cos(), doubled.sin()


def test_qwen2_vls_cos_and_sin_are_its_rotary_embeddings():
    positions = mrope_positions(INPUTS["image and video"])
    config = Qwen2VLConfig(text_config={**TINY, "hidden_size": 256, "num_attention_heads": 2})
    rotary = Qwen2VLRotaryEmbedding(config.text_config)
    cos, sin = rotary(torch.zeros(1, dtype=torch.float32), positions[:, None, :])
    inv_freq = rope_inv_freq(128, rotary.config.rope_parameters["rope_theta"])
    ours = _cos_sin(mrope_angles(positions, inv_freq, pair_axes(QWEN2_VL_SECTION)))
    assert torch.equal(ours[0], cos[0]) and torch.equal(ours[1], sin[0])


def test_qwen3_vls_cos_and_sin_are_its_rotary_embeddings():
    positions = mrope_positions(INPUTS["two images"])
    config = Qwen3VLTextConfig(**{**TINY, "hidden_size": 256, "num_attention_heads": 2, "head_dim": 128})
    rotary = Qwen3VLTextRotaryEmbedding(config)
    cos, sin = rotary(torch.zeros(1, dtype=torch.float32), positions[:, None, :])
    inv_freq = rope_inv_freq(128, config.rope_parameters["rope_theta"])
    ours = _cos_sin(mrope_angles(positions, inv_freq, pair_axes(QWEN3_VL_SECTION, interleaved=True)))
    assert torch.equal(ours[0], cos[0]) and torch.equal(ours[1], sin[0])


def test_two_patches_one_row_apart_differ_only_on_the_h_pairs():
    """Anywhere in the image, one row down turns the h pairs by θᵢ and leaves the t and w pairs alone."""
    positions = mrope_positions([Segment("image", grid=(1, 8, 8))])  # 4 × 4 tokens
    angles = mrope_angles(positions, rope_inv_freq(128, 1_000_000.0), pair_axes(QWEN2_VL_SECTION))
    axes = pair_axes(QWEN2_VL_SECTION)
    for a, b in ((0, 4), (5, 9), (10, 14)):  # (row r, column c) and (row r + 1, column c)
        moved = angles[b] - angles[a]
        assert torch.allclose(moved[axes == 1], rope_inv_freq(128, 1_000_000.0)[axes == 1])
        assert torch.count_nonzero(moved[axes != 1]) == 0
