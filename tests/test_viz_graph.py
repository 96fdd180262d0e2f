"""minigrad.viz.graph: the drawing data (model) and both SVG renderers.

The model is tested on its own (kinds, labels, saved-tensor states, the node
cap, collapsed chains, determinism); the SVG is parsed as XML and searched for
what a student must see.  The graphviz tests skip where `dot` is not installed.
"""
import shutil
import xml.etree.ElementTree as ET

import pytest

import minigrad as torch
import minigrad.viz as viz
from minigrad.autograd import Function
from minigrad.viz import draw, model as viz_model
from minigrad.viz.draw import RED

HAS_DOT = shutil.which("dot") is not None
needs_dot = pytest.mark.skipif(
    not HAS_DOT, reason="graphviz's `dot` is not installed (apt-get install graphviz)")
ENGINES = ["python", pytest.param("dot", marks=needs_dot)]


class Func(Function):
    """The seed's example: x * y * z inside a custom Function, three tensors saved."""

    @staticmethod
    def forward(ctx, x, y, z):
        w = x * y * z
        out = x * y + y * z + w
        ctx.save_for_backward(x, y, out)
        ctx.z = z
        return out

    @staticmethod
    def backward(ctx, grad_out):
        x, y, out = ctx.saved_tensors
        return grad_out * (y + y * ctx.z), grad_out * (x + ctx.z + x * ctx.z), None


def seed_graph():
    a = torch.tensor(1.0, requires_grad=True, dtype=torch.double)
    b = torch.tensor(2.0, requires_grad=True, dtype=torch.double)
    return Func.apply(a, b, 4)


def mlp_graph():
    x = torch.ones(2, 3, requires_grad=True)
    w = torch.ones(3, 4, requires_grad=True)
    b = torch.zeros(4, requires_grad=True)
    return ((x @ w + b).relu() ** 2).sum()


def stale_graph():
    """exp saves its result; changing it in place makes backward fail: drawn red."""
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    y = x.exp()
    z = (y * 2).sum()
    y.add_(1)
    return z


def chain_graph(n=1000):
    y = torch.tensor([1.0, 2.0], requires_grad=True)
    for _ in range(n):
        y = y * 1.001
    return y


def labels(model, kind):
    return [n.label for n in model.of_kind(kind)]


def svg_text(svg):
    """All the text of an SVG, parsed as XML (which also proves it well formed)."""
    root = ET.fromstring(svg)
    return " ".join(t for t in root.itertext())


# --- the model ---------------------------------------------------------------

def test_model_kinds_labels_and_edges_of_the_mlp():
    m = viz_model.build(mlp_graph(), show_saved=False)
    assert [n.label[0] for n in m.of_kind("function")] == [
        "MmBackward0", "AddBackward0", "ReluBackward0", "PowBackward0", "SumBackward0"]
    assert sorted(n.label[1] for n in m.of_kind("leaf")) == ["(2, 3)", "(3, 4)", "(4,)"]
    assert all(n.label[0] == "leaf" and n.details["name"] == "AccumulateGrad"
               for n in m.of_kind("leaf"))
    (out,) = m.of_kind("output")
    assert out.label == ("output", "()")
    ids = {n.id for n in m.nodes}
    assert all(e.src in ids and e.dst in ids for e in m.edges)
    assert m.node([e.src for e in m.edges if e.dst == out.id][0]).label == ("SumBackward0",)


def test_custom_function_node_and_its_saved_tensors():
    m = viz_model.build(seed_graph(), show_shapes=True)
    (fn,) = m.of_kind("function")
    assert fn.label == ("FuncBackward",)
    saved = m.of_kind("saved")
    assert [s.owner for s in saved] == [fn.id] * 3
    assert [s.label[0] for s in saved] == ["saved", "saved", "saved output"]
    assert saved[0].label[1] == "() float64"
    assert all(e.style == "saved" and e.dst == fn.id for e in m.edges if e.src.endswith(".s0"))


def test_saved_tensor_states_stale_freed_packed():
    stale = viz_model.build(stale_graph()).of_kind("saved")
    exp_saved = [s for s in stale if s.details["is_output"]]
    assert exp_saved[0].details["stale"] and "v0 → v1" in exp_saved[0].label[-1]
    x = torch.tensor([0.5], requires_grad=True)
    loss = x.sin().sum()
    loss.backward()
    (freed,) = viz_model.build(loss).of_kind("saved")
    assert freed.details["freed"] and not freed.details["stale"] and "freed" in freed.label
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        packed = x.sin().sum()
    (node,) = viz_model.build(packed).of_kind("saved")
    assert node.details["packed"] and "packed by hooks" in node.label


def test_show_saved_false_draws_no_saved_nodes():
    assert not viz_model.build(seed_graph(), show_saved=False).of_kind("saved")


def test_long_chain_is_collapsed_to_first_and_last_few():
    m = viz_model.build(chain_graph(1000), show_saved=False)
    functions = m.of_kind("function")
    (collapsed,) = m.of_kind("collapsed")
    assert len(functions) == 6 and collapsed.label == ("× 994 MulBackward0",)
    assert m.collapsed == 994 and m.hidden == 0
    order = [n.id for n in m.nodes]
    assert order.index(functions[2].id) < order.index(collapsed.id) < order.index(functions[3].id)


def test_max_nodes_caps_the_drawing_and_says_so():
    x = torch.tensor([1.0], requires_grad=True)
    y = x
    for k in range(300):       # alternating ops: nothing to collapse
        y = y.sin() if k % 2 else y.cos()
    m = viz_model.build(y, max_nodes=20, show_saved=False)
    assert len(m.of_kind("function")) == 20
    (more,) = m.of_kind("more")
    assert more.label == ("… 281 more nodes not shown",)
    assert any(e.src == "more" for e in m.edges)
    m = viz_model.build(y, max_nodes=20, lang="zh")
    assert "更多节点未显示" in m.of_kind("more")[0].label[0]


def test_big_graph_without_recursion():
    viz.graph(chain_graph(5000).sum(), engine="python")      # no RecursionError


def test_model_and_drawing_are_deterministic():
    first = viz.graph(mlp_graph(), engine="python", show_shapes=True)
    second = viz.graph(mlp_graph(), engine="python", show_shapes=True)
    assert first.model == second.model
    assert first.svg == second.svg and first.dot_source == second.dot_source


def test_chinese_labels_and_default_language(monkeypatch):
    m = viz_model.build(stale_graph(), lang="zh")
    assert m.of_kind("leaf")[0].label[0] == "叶子张量"
    assert m.of_kind("output")[0].label[0] == "输出"
    assert "已保存（输出）" in labels(m, "saved")[0]
    monkeypatch.setenv("MINIGRAD_LANG", "zh_CN")
    assert viz_model.build(mlp_graph()).lang == "zh"
    monkeypatch.setattr(torch.settings, "lang", "en")
    assert viz_model.build(mlp_graph()).lang == "en"
    with pytest.raises(ValueError, match="lang must be one of"):
        viz_model.build(mlp_graph(), lang="fr")


def test_names_label_leaves():
    x = torch.ones(2, requires_grad=True)
    m = viz_model.build((x * 2).sum(), names={"x": x})
    assert m.of_kind("leaf")[0].label == ("x", "(2,)")


# --- SVG -----------------------------------------------------------------------

@pytest.mark.parametrize("engine", ENGINES)
def test_svg_is_xml_with_names_shapes_and_red_for_a_stale_tensor(engine):
    drawing = viz.graph(mlp_graph(), engine=engine, show_shapes=True)
    assert drawing.renderer == engine
    text = svg_text(drawing.svg)
    for name in ("MmBackward0", "AddBackward0", "ReluBackward0", "SumBackward0", "(3, 4)",
                 "(2, 3)", "float32", "saved", "output"):
        assert name in text
    assert drawing._repr_svg_() == drawing.svg
    stale = viz.graph(stale_graph(), engine=engine)
    assert RED in stale.svg and RED not in drawing.svg
    assert "changed in place" in svg_text(stale.svg)


@pytest.mark.parametrize("engine", ENGINES)
def test_svg_of_collapsed_chain_cap_and_chinese(engine):
    drawing = viz.graph(chain_graph(1000).sum(), engine=engine, max_nodes=5, lang="zh")
    text = svg_text(drawing.svg)
    assert "× 994 MulBackward0" in text and "更多节点未显示" in text


@pytest.mark.parametrize("engine", ENGINES)
def test_text_is_escaped_for_xml(engine):
    x = torch.ones(2, requires_grad=True)
    drawing = viz.graph((x * 2).sum(), engine=engine, names={'<x & "y">': x})
    assert '<x & "y">' in svg_text(drawing.svg)


def test_python_layout_keeps_boxes_apart_and_inside():
    placed = __import__("minigrad.viz.layout", fromlist=["layout"]).layout(
        viz_model.build(mlp_graph(), show_shapes=True))
    boxes = list(placed.boxes.values())
    for i, (x1, y1, w1, h1) in enumerate(boxes):
        assert 0 <= x1 and x1 + w1 <= placed.width and 0 <= y1 and y1 + h1 <= placed.height
        for x2, y2, w2, h2 in boxes[i + 1:]:
            assert x1 + w1 <= x2 or x2 + w2 <= x1 or y1 + h1 <= y2 or y2 + h2 <= y1


def test_missing_dot_falls_back_to_python(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None)
    drawing = viz.graph(seed_graph(), engine="auto")
    assert drawing.renderer == "python"
    assert "FuncBackward" in svg_text(drawing.svg)
    assert "digraph" in drawing.dot_source
    with pytest.raises(RuntimeError, match="apt-get install graphviz.*engine='python'"):
        viz.graph(seed_graph(), engine="dot")


def test_save_svg_dot_and_png(tmp_path, monkeypatch):
    drawing = viz.graph(seed_graph(), engine="python")
    ET.parse(drawing.save(tmp_path / "g.svg"))
    assert "digraph" in drawing.save(tmp_path / "g.dot").read_text()
    with pytest.raises(ValueError, match=".svg, .png"):
        drawing.save(tmp_path / "g.pdf")
    if HAS_DOT:
        assert drawing.save(tmp_path / "g.png").read_bytes()[:4] == b"\x89PNG"
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None)
    with pytest.raises(RuntimeError, match="save a .svg instead"):
        drawing.save(tmp_path / "g.png")


@needs_dot
def test_graphviz_renders_when_installed():
    drawing = viz.graph(seed_graph(), engine="auto")
    assert drawing.renderer == "dot" and drawing.svg.startswith("<svg")
    assert draw.find_dot() is not None


def _boxes_and_lines(svg):
    """For each node group of an SVG: (x range of its shapes, [(text, x, anchor, size)])."""
    import re
    found = []
    for group in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}g"):
        if group.get("class") != "node":
            continue
        xs = []
        for shape in group.iter():
            coords = shape.get("d") or shape.get("points")
            if shape.tag.endswith(("path", "polygon")) and coords:
                xs += [float(x) for x in re.findall(r"(-?\d+\.?\d*),-?\d+\.?\d*", coords)]
        texts = [(t.text, float(t.get("x")), t.get("text-anchor"), float(t.get("font-size")))
                 for t in group.iter("{http://www.w3.org/2000/svg}text") if t.text]
        found.append(((min(xs), max(xs)), texts))
    return found


@needs_dot
def test_dot_boxes_hold_chinese_labels():
    """Full-width characters are one em: graphviz's boxes are made that wide, and each
    line is centred on its box, so "已保存（输出）" stays inside its box whatever graphviz
    measured."""
    from minigrad.viz.layout import text_width
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp().sum()
    svg = viz.graph(y, lang="zh", engine="dot").svg
    assert "已保存（输出）" in svg
    checked = 0
    for (left, right), texts in _boxes_and_lines(svg):
        for line, x_pos, anchor, size in texts:
            assert anchor == "middle" and abs(x_pos - (left + right) / 2) < 0.5, line
            assert text_width(line, size) + 4 <= right - left, (line, right - left)
            checked += 1
    assert checked >= 4


def test_python_boxes_hold_chinese_labels():
    from minigrad.viz.layout import box_size, text_width
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    drawing = viz.graph(x.exp().sum(), lang="zh", engine="python")
    saved = drawing.model.of_kind("saved")[0]
    assert saved.label[0] == "已保存（输出）"
    assert box_size(saved)[0] >= text_width("已保存（输出）", 11) >= 7 * 11
