"""minigrad.viz.export: one animated SVG (CSS keyframes, no script), GIF, HTML."""
import re
import sys
import xml.etree.ElementTree as ET

import pytest

import minigrad as torch
import minigrad.viz as viz
from minigrad.viz import animation_export

SVG = "{http://www.w3.org/2000/svg}"


def small_trace():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with viz.record() as trace:
        y = x.exp()
        (y * y).sum().backward()
    return trace


def slots(svg):
    root = ET.fromstring(svg)
    return root, [g for g in root.iter(SVG + "g") if "mg-slot" in g.get("class", "").split()]


def test_animated_svg_has_one_slot_per_frame_and_keyframes(tmp_path):
    trace = small_trace()
    story = viz.frames(trace)
    path = viz.export(trace, tmp_path / "anim.svg", seconds_per_frame=0.5)
    svg = path.read_text(encoding="utf-8")
    root, groups = slots(svg)
    assert root.get("data-frames") == str(len(story)) and len(groups) == len(story)
    assert [g.get("data-step") for g in groups] == [str(f.step) for f in story]
    assert "@keyframes" in svg and "<script" not in svg
    for frame, group in zip(story, groups):    # each slot holds that frame's picture
        assert frame.caption.split(":")[0] in " ".join(group.itertext())
    # slot k becomes visible k * 0.5 s into the loop, and the loop lasts
    # (frames - 1 + HOLD_LAST) slots: the last frame stays a little longer
    total = (len(story) - 1 + animation_export.HOLD_LAST) * 0.5
    assert f"mg-play {total:.3f}s step-end infinite" in svg
    delays = [float(d) for d in re.findall(r"\.mg-s\d+\{animation-delay:(-?[\d.]+)s\}", svg)]
    assert delays == pytest.approx([-(total - 0.5 * k) for k in range(len(story))])
    (last,) = [g for g in groups if "mg-last" in g.get("class")]
    assert last is groups[-1]


def test_export_of_a_player_and_of_chinese(tmp_path):
    trace = small_trace()
    from_trace = viz.export(trace, tmp_path / "a.svg", lang="zh").read_text(encoding="utf-8")
    player = viz.animate(trace, lang="zh")
    from_player = viz.export(player, tmp_path / "b.svg").read_text(encoding="utf-8")
    assert from_trace == from_player
    assert "反向传播" in from_trace and "运行 MulBackward0：输出 2 个梯度" in from_trace
    backward_only = viz.export(trace, tmp_path / "c.svg", view="backward")
    _, groups = slots(backward_only.read_text(encoding="utf-8"))
    assert {g.get("data-phase") for g in groups} == {"backward"}


def test_html_page_and_bad_arguments(tmp_path):
    trace = small_trace()
    page = viz.export(trace, tmp_path / "anim.html").read_text(encoding="utf-8")
    assert page.count('class="minigrad-frame"') == len(viz.frames(trace))
    assert 'type="range"' in page and 'title="Next"' in page
    with pytest.raises(ValueError, match=".svg, .gif or .html"):
        viz.export(trace, tmp_path / "anim.mp4")
    with pytest.raises(ValueError, match="seconds_per_frame"):
        viz.export(trace, tmp_path / "anim.svg", seconds_per_frame=0)


def test_gif_needs_cairosvg_and_says_so(tmp_path, monkeypatch):
    trace = small_trace()
    monkeypatch.setitem(sys.modules, "cairosvg", None)
    with pytest.raises(RuntimeError, match="pip install cairosvg.*export a .svg"):
        viz.export(trace, tmp_path / "anim.gif")


def test_gif_when_cairosvg_is_installed(tmp_path):
    pytest.importorskip("cairosvg")
    pytest.importorskip("PIL")
    trace = small_trace()
    data = viz.export(trace, tmp_path / "anim.gif").read_bytes()
    assert data[:6] == b"GIF89a"
