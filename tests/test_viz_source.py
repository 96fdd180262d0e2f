"""The engine's source beside the graph: each frame highlights the line that emitted
its event, in the player (kernel or none) and in the animated SVG."""
import inspect
import re

import pytest

import minigrad as torch
import minigrad.viz as viz
from minigrad.core import graph as engine
from minigrad.viz.timeline import timeline


def recorded():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, -1.0], requires_grad=True)
    with viz.record() as trace:
        loss = (x * w).exp().sum()
        loss.backward()
    return trace


def highlighted(svg):
    """[(function, line)] of the highlights in `svg`."""
    return [(function, int(line)) for line, function in re.findall(
        r'<g class="mg-line" data-line="(\d+)" data-function="([^"]+)"', svg)]


def test_each_frame_highlights_the_line_of_its_event_in_the_live_source():
    story = viz.frames(recorded())
    listing = story[0]._listing
    loop_lines, loop_first = inspect.getsourcelines(engine.run_backward)
    for frame in story:
        where = frame.event.where
        svg = "".join(svg for _, svg in listing.pieces(frame))
        assert highlighted(svg) == [(where.function, where.line)]
        function, first, lines = listing.listings[(where.file, where.first_line)]
        text = lines[where.line - first].strip()
        if function == "run_backward":
            assert text == loop_lines[where.line - loop_first].strip()
        assert f'data-function="{function}"' in svg
    backward = [f for f in story if f.phase == "backward"]
    assert len({f.where.line for f in backward}) >= 4       # the highlight moves
    assert {f.where.function for f in story} == {"Function.apply", "run_backward"}


def test_the_listing_is_the_engine_function_as_inspect_reads_it():
    story = viz.frames(recorded())
    listing = story[0]._listing
    where = next(f.where for f in story if f.phase == "backward")
    _, first, lines = listing.listings[(where.file, where.first_line)]
    source, start = inspect.getsourcelines(engine.run_backward)
    assert first == start
    assert [line.strip() for line in lines] == [line.strip() for line in source]


def test_a_frame_without_a_location_keeps_the_listing_and_highlights_nothing():
    trace = recorded()
    for event in trace:
        if event.kind == "node_finished":
            event.where = None
    story = viz.frames(trace)
    finished = [f for f in story if f.event.kind == "node_finished"]
    assert finished
    for frame in finished:
        pieces = frame._listing.pieces(frame)
        assert len(pieces) == 1 and 'class="mg-listing"' in pieces[0][1]
        before = story[frame.step - 1]           # the view stays on the line before
        assert frame._listing.focus(frame) == before._listing.focus(before) > 0


@pytest.mark.parametrize("lang, labels", [("en", ("Tensors & queue", "Source")),
                                          ("zh", ("张量与队列", "源码"))])
def test_the_player_toggles_between_the_panel_and_the_source(lang, labels):
    player = viz.animate(recorded(), lang=lang)
    assert player.side.options == labels and player.side.index == 0
    styles = [link.target[0] for link in player.links if link.source[0] is player.side]
    assert len(styles) == 1 and [link.target[1] for link in player.links
                                 if link.source[0] is player.side] == ["selected_index"]
    styles = styles[0]
    assert "mg-source{display:none}" in styles.children[0].value
    assert "mg-side{display:none}" in styles.children[1].value
    assert '<svg class="minigrad-source"' in player.picture.value
    assert viz.animate(recorded(), lang=lang, source=True).side.index == 1


def test_each_step_keeps_its_line_in_view():
    player = viz.animate(recorded(), source=True)
    listing = player.frames[0]._listing
    for frame, child in zip(player.frames, player.captions.children[1:]):
        assert f"--sy:{listing.focus(frame):.0f}px" in child.value


def test_the_animated_svg_shows_the_source_beside_the_frame_when_asked(tmp_path):
    story = viz.frames(recorded())
    plain = viz.export(story, tmp_path / "plain.svg").read_text(encoding="utf-8")
    both = viz.export(story, tmp_path / "source.svg", source=True).read_text(encoding="utf-8")
    assert "mg-listing" not in plain and "mg-listing" in both
    width = float(re.search(r'width="([\d.]+)"', both).group(1))
    assert width == pytest.approx(story[0]._drawer.width + story[0]._listing.width)
    lines = {p.svg for p in timeline(story, "source") if "mg-line" in p.svg}
    assert lines and all(svg in both for svg in lines)
    page = viz.export(story, tmp_path / "source.html", source=True).read_text(encoding="utf-8")
    assert all(svg in page for svg in lines)
