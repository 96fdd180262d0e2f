"""minigrad.viz.export: one animated SVG (CSS keyframes, no script), GIF, HTML."""
import pathlib
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


def test_animated_svg_draws_each_piece_once_and_shows_it_at_its_steps(tmp_path):
    from minigrad.viz.timeline import PARTS, timeline
    trace = small_trace()
    story = viz.frames(trace)
    path = viz.export(trace, tmp_path / "anim.svg", seconds_per_frame=0.5)
    svg = path.read_text(encoding="utf-8")
    root = ET.fromstring(svg)
    assert root.get("data-frames") == str(len(story))
    assert "@keyframes" in svg and "<script" not in svg
    total = (len(story) - 1 + animation_export.HOLD_LAST) * 0.5
    assert f".mg-t{{visibility:hidden;animation:{total:.3f}s step-end infinite}}" in svg
    rules = dict(re.findall(r"@keyframes k(s\d+)\{((?:[^{}]|\{[^{}]*\})*)\}", svg))
    for part in PARTS:
        for piece in timeline(story, part):
            assert svg.count(piece.svg) >= 1
            if len(piece.steps) == len(story):
                continue                              # always shown: no class, no rule
            name = re.search(r'<g class="mg-t (s\d+)">' + re.escape(piece.svg), svg).group(1)
            shown_from = [float(p) for p in re.findall(r"([\d.]+)%\{visibility:visible\}",
                                                        rules[name])]
            assert shown_from == pytest.approx(
                [100 * first * 0.5 / total for first, _ in piece.spans], abs=1e-3)
    for frame in story:                   # every caption is there, once
        assert svg.count(">" + frame.caption.split(":")[0]) >= 1


def test_thirty_layers_export_grows_with_the_graph_not_with_steps_times_graph(tmp_path):
    """The 30-layer MLP step of benchmarks/animation_size.py: 305 frames.  Drawn frame by
    frame it was 37 MB; drawn once with its changes it must stay below 20 times the size
    of one frame (a few hundred KB to a few MB)."""
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "benchmarks"))
    import animation_size as sizes
    story = viz.frames(sizes.mlp_trace(layers=30))
    assert len(story) == 305
    one_frame = max(len(f.svg) for f in story)
    svg = len(viz.export(story, tmp_path / "mlp.svg").read_bytes())
    assert svg < 20 * one_frame, (svg, one_frame)


def test_export_of_a_player_and_of_chinese(tmp_path):
    trace = small_trace()
    from_trace = viz.export(trace, tmp_path / "a.svg", lang="zh").read_text(encoding="utf-8")
    player = viz.animate(trace, lang="zh")
    from_player = viz.export(player, tmp_path / "b.svg").read_text(encoding="utf-8")
    assert from_trace == from_player
    assert "反向传播" in from_trace and "运行 MulBackward0：输出 2 个梯度" in from_trace
    backward_only = viz.export(trace, tmp_path / "c.svg", view="backward").read_text(
        encoding="utf-8")
    assert "forward ·" not in backward_only and "backward ·" in backward_only


def test_html_page_and_bad_arguments(tmp_path):
    trace = small_trace()
    page = viz.export(trace, tmp_path / "anim.html").read_text(encoding="utf-8")
    assert page.count("<svg") == 1 and "var(--k, 0)" in page
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
