"""The source beside the graph: each frame highlights the line that did its step (the
student's line that created a node, in forward; the engine loop's line, in backward), in
the player (kernel or none) and in the animated SVG."""
import inspect
import re

import pytest

import minigrad as torch
import minigrad.viz as viz
from minigrad.autograd import engine
from minigrad.viz import source_view
from minigrad.viz.timeline import timeline


def recorded():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, -1.0], requires_grad=True)
    with viz.record() as trace:
        h = x * w                                                 # MulBackward0
        loss = h.exp().sum()                                      # ExpBackward0, SumBackward0
        loss.backward()
    return trace


RECORDED, RECORDED_FIRST = inspect.getsourcelines(recorded)


def highlighted(svg):
    """[(function, line)] of the highlights in `svg`."""
    return [(function, int(line)) for line, function in re.findall(
        r'<g class="mg-line" data-line="(\d+)" data-function="([^"]+)"', svg)]


def shown_line(frame):
    """(function, the text of the line highlighted) in frame k's listing."""
    listing = frame._listing
    where, _ = listing.located[frame.step]
    function, first, lines = listing.listings[listing.key(where)]
    return function, lines[where.line - first].strip()


def test_forward_highlights_the_students_line_that_created_each_node():
    story = [f for f in viz.frames(recorded()) if f.phase == "forward"]
    shown = [(f.event["name"], shown_line(f)) for f in story]
    assert shown == [("MulBackward0", ("recorded", RECORDED[4].strip())),
                     ("ExpBackward0", ("recorded", RECORDED[5].strip())),
                     ("SumBackward0", ("recorded", RECORDED[5].strip()))]
    where = story[0]._listing.located[0][0]
    assert where.line == RECORDED_FIRST + 4
    svg = "".join(svg for _, svg in story[0]._listing.pieces(story[0]))
    assert highlighted(svg) == [("recorded", where.line)]


def test_backward_highlights_the_line_of_the_engine_loop_that_did_the_step():
    story = [f for f in viz.frames(recorded()) if f.phase == "backward"]
    loop_lines, loop_first = inspect.getsourcelines(engine.run_backward)
    shown = {}
    for frame in story:
        function, line = shown_line(frame)
        assert function == "run_backward" and not line.startswith(("narration.", "if tracing."))
        shown.setdefault(frame.event.kind, set()).add(line)
        where, _ = frame._listing.located[frame.step]
        svg = "".join(svg for _, svg in frame._listing.pieces(frame))
        assert highlighted(svg) == [("run_backward", where.line)]
        assert line == loop_lines[where.line - loop_first].strip()
    assert shown["backward_started"] == {"dependencies = count_dependencies(roots)"}
    assert shown["node_started"] == {"node = heapq.heappop(ready)[2]"}
    assert shown["node_finished"] == {"grad_inputs = node.apply(grads)"}
    assert shown["backward_finished"] == {"while ready:"}
    assert len({line for lines in shown.values() for line in lines}) >= 4   # it moves


def test_the_listing_is_the_engine_function_as_inspect_reads_it():
    story = viz.frames(recorded())
    listing = story[0]._listing
    where = next(f.where for f in story if f.phase == "backward")
    _, first, lines = listing.listings[listing.key(where)]
    source, start = inspect.getsourcelines(engine.run_backward)
    assert first == start
    assert [line.strip() for line in lines] == [line.strip() for line in source]


def test_a_long_line_continues_on_the_next_row_and_none_is_cut():
    story = viz.frames(recorded())
    listing = story[0]._listing
    key = next(key for key in listing.listings if key[2] == "run_backward")
    _, first, lines = listing.listings[key]
    assert max(map(len, lines)) > source_view.WRAP       # the loop has longer lines
    svg = listing._listing(key)
    rows = [re.sub("<[^>]+>", "", row).replace("&gt;", ">").replace("&lt;", "<")
            .replace("&amp;", "&").replace("&quot;", '"')
            for row in re.findall(r'<text x="\d+" y="\d+" xml:space="preserve">(.*?)</text>',
                                  svg)]
    assert max(len(row) for row in rows) <= source_view.GUTTER + 1 + source_view.WRAP
    numbered = [row[source_view.GUTTER + 1:] if row[:source_view.GUTTER].strip()
                else None for row in rows]
    joined = []
    for row, text in zip(rows, numbered):
        if text is not None:
            joined.append(text)
        else:
            joined[-1] += " " + row.strip()
    assert ["".join(line.split()) for line in joined] == ["".join(line.split())
                                                           for line in lines]
    assert listing.width <= 2 * source_view.PAD + (source_view.GUTTER + 1 + source_view.WRAP) \
        * source_view.CHAR * source_view.CODE + 1


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
