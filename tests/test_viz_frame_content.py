"""What a frame of minigrad.viz.frames says and how it is laid out, tested without a browser.

Sizes are checked with the same measure the drawing uses (`layout.text_width`:
0.6 em per Latin character, 1 em per Chinese one, as in DejaVu Sans Mono and
Noto Sans CJK); the browser tests check the real rendering.
"""
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import minigrad as torch
import minigrad.viz as viz
from minigrad import tracing
from minigrad.viz.frame_svg import RED
from minigrad.viz.layout import text_width

SVG = "{http://www.w3.org/2000/svg}"
TRANSLATE = re.compile(r"translate\(([-\d.]+),([-\d.]+)\)")


def small_trace():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, -1.0], requires_grad=True)
    with viz.record() as trace:
        y = (x * w).exp().sum()
        y.backward()
    return trace, {"x": x, "w": w, "y": y}


def training_step():
    """Lesson 16's shape of work: two layers of a batch of 32, many large saved tensors."""
    torch.manual_seed(0)
    x = torch.randn(32, 100)
    W1 = torch.randn(100, 100, requires_grad=True)
    W2 = torch.randn(100, 10, requires_grad=True)
    with viz.record() as trace:
        hidden = (x @ W1).relu()
        out = (hidden @ W2).tanh()
        ((out * out).mean() + (hidden * hidden).mean()).backward()
    return trace


def short_and_wide():
    """Ten products of x: a graph three boxes tall, a panel with ten saved tensors."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    scales = [torch.tensor([float(k), 1.0]) for k in range(1, 11)]
    with viz.record() as trace:
        products = [x * c for c in scales]
        products[0].backward(torch.ones(2))
    return trace


def elements(svg):
    """(element, x offset, y offset) for every element, with its groups' translations."""
    found = []

    def visit(element, dx, dy):
        match = TRANSLATE.search(element.get("transform", ""))
        if match:
            dx, dy = dx + float(match.group(1)), dy + float(match.group(2))
        found.append((element, dx, dy))
        for child in element:
            visit(child, dx, dy)
    visit(ET.fromstring(svg), 0.0, 0.0)
    return found


def bottom_of_content(svg):
    """The lowest text or box of the frame (the white background left out)."""
    bottoms = []
    for element, _, dy in elements(svg):
        if element.tag == SVG + "text":
            bottoms.append(dy + float(element.get("y")) + 4)        # descenders
        elif element.tag == SVG + "rect" and element.get("y") is not None:
            bottoms.append(dy + float(element.get("y")) + float(element.get("height")))
    return max(bottoms)


def saved_rows(svg):
    """(rect, left text, right text, panel offset) of each row of the saved-tensor list."""
    rows = []
    for element, dx, _ in elements(svg):
        if "mg-saved-row" in element.get("class", ""):
            rect, left, right = list(element)
            rows.append((rect, left, right, dx))
    return rows


# --- the frame's size ----------------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "zh"])
def test_frame_is_as_tall_as_its_content(lang):
    for trace in (small_trace()[0], training_step(), short_and_wide()):
        story = viz.frames(trace, lang)
        height = float(ET.fromstring(story[0].svg).get("height"))
        lowest = max(bottom_of_content(f.svg) for f in story)
        assert lowest <= height, "something is drawn below the frame"
        assert height - lowest < 24, f"{height - lowest:.0f} px of empty space under the content"
    drawer = viz.frames(short_and_wide())[0]._drawer
    assert drawer.height > drawer.header + drawer.stage.placed.height + 50   # the panel's height


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_saved_rows_fit_their_box_without_overlapping(lang):
    story = viz.frames(training_step(), lang)
    width = float(ET.fromstring(story[0].svg).get("width"))
    sizes = {e["nbytes"] for e in story[0]._drawer.stage.saved.values()}
    assert max(sizes) >= 12800 and len(story[0]._drawer.stage.saved) >= 8
    checked = set()
    for frame in story:
        for rect, left, right, dx in saved_rows(frame.svg):
            box_left = float(rect.get("x"))
            box_right = box_left + float(rect.get("width"))
            left_end = float(left.get("x")) + text_width(left.text, 12)
            right_start = float(right.get("x")) - text_width(right.text, 12)
            assert right.get("text-anchor") == "end"
            assert float(left.get("x")) >= box_left + 4, left.text
            assert left_end + 8 <= right_start, f"{left.text!r} runs into {right.text!r}"
            assert float(right.get("x")) <= box_right - 4, f"{right.text!r} touches its box"
            assert dx + box_right <= width
            checked.add(right.text)
    held = "held for backward" if lang == "en" else "等待反向传播使用"
    assert held in checked and len(checked) >= 2


# --- words -----------------------------------------------------------------------------

@pytest.mark.parametrize("lang, forward, backward", [("en", "just created", "running now"),
                                                     ("zh", "刚刚创建", "正在运行")])
def test_legend_says_what_yellow_means_in_each_phase(lang, forward, backward):
    story = viz.frames(small_trace()[0], lang)
    for frame in story:
        said, other = (forward, backward) if frame.phase == "forward" else (backward, forward)
        assert said in frame.svg and other not in frame.svg


def test_leaves_and_outputs_are_named_without_names():
    trace, t = small_trace()
    story = viz.frames(trace)
    leaf_labels = ["|".join(g.itertext()) for g in ET.fromstring(story[-1].svg).iter(SVG + "g")
                   if g.get("class", "").startswith("mg-node") and
                   trace.names[int(g.get("data-node"))] == "AccumulateGrad"]
    assert sorted(label.split("|")[0] for label in leaf_labels) == ["leaf 1", "leaf 2"]
    assert any("(2,): [1, 2]" in label for label in leaf_labels)
    assert any("(2,): [3, -1]" in label for label in leaf_labels)
    output = t["y"].item()
    assert f"(): {output:.4g}" in story[-1].svg
    accumulated = [f.caption for f in story if f.event.kind == "grad_accumulated"]
    assert {c.split(".grad")[0] for c in accumulated} == {"leaf 1", "leaf 2"}
    named = viz.frames(trace, names=t)[-1].svg
    assert "leaf 1" not in named and ">x<" in named and ">w<" in named and ">y<" in named
    zh = viz.frames(trace, "zh")[-1].svg
    assert "叶子张量 1" in zh and "叶子张量 2" in zh


def test_one_leaf_is_just_leaf_and_large_leaves_show_only_their_shape():
    x = torch.ones(3, 4, requires_grad=True)
    with viz.record() as trace:
        x.exp().sum().backward()
    svg = viz.frames(trace)[-1].svg
    assert ">leaf<" in svg and ">(3, 4)<" in svg and "leaf 1" not in svg


# --- a backward through freed saved tensors ---------------------------------------

def test_backward_a_second_time_gets_a_red_frame():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with viz.record() as trace:
        y = (x * x).sum()
        y.backward()
        with pytest.raises(RuntimeError, match="a second time"):
            y.backward()
    (event,) = trace.of_kind("saved_tensor_freed_access")
    mul = tracing.ident(y.grad_fn.next_functions[0][0])
    assert event["node"] == mul and event["slot"] in (0, 1)
    story = viz.frames(trace)
    last = story[-1]
    assert last.event.kind == "saved_tensor_freed_access" and last.failed
    assert last.freed_access == (mul, event["slot"]) and last.failed_check is None
    assert last.current == mul and last.phase == "backward"
    assert "already freed" in last.caption and "retain_graph=True" in last.caption
    assert RED in last.svg and 'data-state="freed_access"' in last.svg
    assert all(not f.failed for f in story[:-1])
    zh = viz.frames(trace, "zh")[-1]
    assert "已经释放" in zh.caption and "retain_graph=True" in zh.caption
    assert "已释放，却还要用" in zh.svg


def test_a_second_backward_without_failure_emits_no_freed_access():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with viz.record() as trace:
        y = (x * x).sum()
        y.backward(retain_graph=True)
        y.backward()
    assert not trace.of_kind("saved_tensor_freed_access")
    assert not any(f.failed for f in viz.frames(trace))


# --- memory of packed tensors ------------------------------------------------------

def packed_trace(pack, unpack):
    x = torch.ones(1000, requires_grad=True)
    with viz.record() as trace:
        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            y = x.exp()
        y.sum().backward()
    return trace


def test_memory_counts_what_pack_hook_returned(tmp_path):
    def to_half(t):
        return t.detach().numpy().astype(np.float16)

    def to_disk(t):
        path = tmp_path / f"{id(t)}.npy"
        np.save(path, t.detach().numpy())
        return str(path)

    plain = viz.frames(packed_trace(lambda t: t, lambda t: t))
    half = viz.frames(packed_trace(to_half, lambda a: torch.tensor(a.astype(np.float32))))
    disk = viz.frames(packed_trace(to_disk, lambda p: torch.tensor(np.load(p))))
    peak = [max(f.memory_bytes for f in story) for story in (plain, half, disk)]
    assert peak == [4000, 2000, 0]
    assert [e["packed_nbytes"] for e in disk[0]._drawer.stage.trace.of_kind(
        "tensor_packed")] == [0]
    note = "packed: counts what pack_hook returned"
    assert note in plain[0].svg and ">2000 B<" not in half[0].svg
    assert "2000 B" in half[1].svg
    assert note not in viz.frames(small_trace()[0])[0].svg       # no packing, no note
    zh = viz.frames(packed_trace(to_disk, lambda p: torch.tensor(np.load(p))), "zh")
    assert "pack_hook 的返回值" in zh[0].svg


def test_a_window_that_follows_a_node_keeps_its_saved_tensors_in_view():
    """The point the following window centres is that of the current node together with the
    saved tensors of it that the frame shows: their boxes are never left at the edge."""
    trace, names = small_trace()
    frames = viz.frames(trace, names=names)
    drawer = frames[0]._drawer
    checked = 0
    for frame in frames:
        saved = [drawer.stage.box(f"{node}.s{slot}") for node, slot in frame.saved_states
                 if node == frame.current and f"{node}.s{slot}" in drawer.stage.placed.boxes]
        if not saved:
            continue
        boxes = [drawer.stage.box(frame.current)] + saved
        fx, fy = drawer.focus(frame)
        left, right = min(x for x, _, _, _ in boxes), max(x + w for x, _, w, _ in boxes)
        top, bottom = min(y for _, y, _, _ in boxes), max(y + h for _, y, _, h in boxes)
        assert (fx, fy) == pytest.approx(((left + right) / 2, (top + bottom) / 2))
        checked += 1
    assert checked > 0
