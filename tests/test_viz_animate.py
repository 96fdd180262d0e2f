"""minigrad.viz.frames and minigrad.viz.animate, tested without a browser.

Frames are recorded from real traces and checked as data (which node is
current, which saved tensors are alive, the ready queue ...); their SVG is
parsed as XML and searched for the DOM contract the browser tests rely on.
"""
import re
import shutil
import sys
import xml.etree.ElementTree as ET

import pytest

import minigrad as torch
import minigrad.viz as viz
from minigrad import tracing
from minigrad.viz.frame_svg import RED

SVG = "{http://www.w3.org/2000/svg}"


def lesson_network():
    """The lesson's x, w, b network: tanh saves its output, y * y saves y twice, a hook."""
    x = torch.tensor([1.0, 2.0])
    w = torch.tensor([0.5, -1.0], requires_grad=True)
    b = torch.tensor(0.1, requires_grad=True)
    with viz.record() as trace:
        y = (x * w + b).tanh()
        y.register_hook(lambda grad: grad)
        loss = (y * y).sum()
        loss.backward()
    return trace, {"x": x, "w": w, "b": b, "y": y, "loss": loss}


def branching():
    """a feeds exp and sin: when Sin runs, Exp waits in the ready queue."""
    x = torch.tensor([1.0], requires_grad=True)
    with viz.record() as trace:
        a = x * 2
        (a.exp() + a.sin()).sum().backward()
    return trace, a


def in_place_failure():
    """exp saves its result, add_ changes it: backward's version check fails."""
    a = torch.tensor([0.5, 1.0], requires_grad=True)
    with viz.record() as trace:
        b = a.exp()
        loss = (b * 2).sum()
        b.add_(1)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            loss.backward()
    return trace, b


def root_of(svg):
    return ET.fromstring(svg)


def node_groups(svg):
    return [g for g in root_of(svg).iter(SVG + "g") if "mg-node" in g.get("class", "").split()]


def current_groups(svg):
    return [g for g in node_groups(svg) if "mg-current" in g.get("class").split()]


# --- frames as data -------------------------------------------------------------

def test_backward_frames_follow_the_engine_order_and_start_at_the_root():
    trace, t = lesson_network()
    story = viz.frames(trace)
    backward = [f for f in story if f.phase == "backward"]
    first = backward[0]
    assert first.event.kind == "backward_started"
    assert first.current == tracing.ident(t["loss"].grad_fn)
    started = [trace.names[f.current] for f in story if f.event.kind == "node_started"]
    assert started == trace.backward_order()
    assert [f.step for f in story] == list(range(len(story)))


def test_forward_grows_the_graph_node_by_node():
    trace, t = lesson_network()
    story = viz.frames(trace)
    forward = [f for f in story if f.phase == "forward"]
    created = trace.of_kind("node_created")
    assert [f.current for f in forward] == [e["node"] for e in created]
    functions = [[n for n in f.nodes_shown if trace.names[n] != "AccumulateGrad"]
                 for f in forward]
    assert [len(nodes) for nodes in functions] == list(range(1, len(created) + 1))
    for frame in forward:          # the picture draws exactly the nodes on stage
        drawn = {int(g.get("data-node")) for g in node_groups(frame.svg)}
        assert drawn == set(frame.nodes_shown)


def test_saved_tensors_alive_and_memory_falls_to_zero():
    trace, t = lesson_network()
    story = viz.frames(trace)
    tanh = tracing.ident(t["y"].grad_fn)
    square = tracing.ident(t["loss"].grad_fn.next_functions[0][0])
    saved = [e for e in trace.of_kind("tensor_saved") if not e["wrapped_number"]]
    end_of_forward = [f for f in story if f.phase == "forward"][-1]
    assert set(end_of_forward.alive_saved) == {(e["node"], e["slot"]) for e in saved}
    assert end_of_forward.memory_bytes == sum(e["nbytes"] for e in saved) > 0
    tanh_created = next(f for f in story if f.event.kind == "node_created"
                        and f.current == tanh)
    assert (tanh, 0) in tanh_created.alive_saved
    assert tanh_created.saved_states[(tanh, 0)] == "saved"
    square_done = next(f for f in story if f.event.kind == "node_finished"
                       and f.current == square)
    assert (square, 0) not in square_done.alive_saved
    assert square_done.saved_states[(square, 1)] == "freed"
    memory = [f.memory_bytes for f in story if f.phase == "backward"]
    assert memory == sorted(memory, reverse=True) and memory[-1] == 0
    assert story[-1].alive_saved == []


def test_failed_version_check_frame_is_marked_and_red():
    trace, b = in_place_failure()
    story = viz.frames(trace)
    exp = tracing.ident(b.grad_fn.next_functions[0][0])   # b.grad_fn is now AddBackward0
    failed = [f for f in story if f.failed_check is not None]
    assert len(failed) == 1 and failed[0].failed_check == (exp, 0)
    assert failed[0].stale[(exp, 0)] == (0, 1)
    assert RED in failed[0].svg and "v0 → v1" in failed[0].svg
    (bump,) = [f for f in story if f.bumped]        # add_ makes the saved tensor stale
    assert bump.bumped == [(exp, 0)] and bump.stale == {(exp, 0): (0, 1)}
    assert bump.caption == ("AddBackward0 is created by an in-place op: the tensor "
                            "ExpBackward0 saved goes from v0 to v1")
    assert "v0 → v1" in bump.svg and bump.phase == "forward"
    assert all(RED not in f.svg for f in story[:bump.step])
    zh = viz.frames(trace, lang="zh")[failed[0].step]
    assert "版本检查失败" in zh.caption and "原地操作" in zh.caption


def test_ready_queue_priorities_and_dependency_counts():
    trace, a = branching()
    story = viz.frames(trace)
    names = trace.names
    sin_runs = next(f for f in story if f.event.kind == "node_started"
                    and names[f.current] == "SinBackward0")
    assert [names[n] for n, _ in sin_runs.ready] == ["ExpBackward0"]
    mul = tracing.ident(a.grad_fn)
    started = next(f for f in story if f.event.kind == "backward_started")
    assert started.dependencies[mul] == 2
    finishing = [f.dependencies[mul] for f in story if f.event.kind == "node_finished"
                 and names[f.current] in ("SinBackward0", "ExpBackward0")]
    assert finishing == [1, 0]
    add_done = next(f for f in story if f.event.kind == "node_finished"
                    and names[f.current] == "AddBackward0")
    priorities = [p for _, p in add_done.ready]     # sin created after exp: runs first
    assert [names[n] for n, _ in add_done.ready] == ["SinBackward0", "ExpBackward0"]
    assert priorities == sorted(priorities, reverse=True)
    assert "ExpBackward0" in add_done.svg and "mg-ready" in add_done.svg


def test_gradient_edges_flow_and_leaves_show_their_grad():
    trace, t = lesson_network()
    story = viz.frames(trace, names=t)
    loss_node = tracing.ident(t["loss"].grad_fn)
    square = tracing.ident(t["loss"].grad_fn.next_functions[0][0])
    sum_done = next(f for f in story if f.event.kind == "node_finished"
                    and f.current == loss_node)
    assert sum_done.flowing == [(loss_node, square)] and sum_done.grad_edges == [(loss_node,
                                                                                 square)]
    flowing = [p for p in root_of(sum_done.svg).iter(SVG + "path")
               if "mg-flowing" in p.get("class", "")]
    assert [(p.get("data-src"), p.get("data-dst")) for p in flowing] == [(str(square),
                                                                          str(loss_node))]
    later = story[-1]
    assert len(later.grad_edges) > len(sum_done.grad_edges) and later.flowing == []
    w = tracing.ident(t["w"])
    assert w not in sum_done.leaf_grads
    grads = [float(v) for v in re.findall(r"-?\d+\.?\d*", later.leaf_grads[w])]
    assert grads == pytest.approx(t["w"].grad.tolist(), abs=1e-3)
    assert "w.grad" in next(f.caption for f in story if f.event.kind == "grad_accumulated"
                            and f.event["leaf"] == w)


def test_hooks_and_packed_tensors_get_their_own_words():
    trace, _ = lesson_network()
    hook = next(f for f in viz.frames(trace) if f.event.kind == "hook_called")
    assert "register_hook" in hook.caption and hook.phase == "backward"
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with viz.record() as packed:
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            y = x.exp()
        y.sum().backward()
    story = viz.frames(packed)
    states = [f.saved_states.get((tracing.ident(y.grad_fn), 0)) for f in story]
    assert "packed" in states and "unpacked" in states and states[-1] == "freed"
    assert any("unpack hook" in f.caption for f in story)


def test_captions_in_both_languages():
    trace, _ = lesson_network()
    en, zh = viz.frames(trace, lang="en"), viz.frames(trace, lang="zh")
    assert len(en) == len(zh)
    assert "MulBackward0 runs: 2 gradients out, frees 2 tensors" in [f.caption for f in en]
    assert "运行 MulBackward0：输出 2 个梯度，释放 2 个张量" in [f.caption for f in zh]
    assert all(re.search("[\u4e00-\u9fff]", f.caption) for f in zh)
    assert all(not re.search("[\u4e00-\u9fff]", f.caption) for f in en)
    assert "反向传播" in zh[-1].svg and "就绪队列" in zh[-1].svg
    with pytest.raises(ValueError, match="lang must be one of"):
        viz.frames(trace, lang="fr")


def test_views_replay_one_phase():
    trace, _ = lesson_network()
    everything = viz.frames(trace)
    backward = viz.frames(trace, view="backward")
    forward = viz.frames(trace, view="forward")
    assert len(forward) + len(backward) == len(everything)
    assert {f.phase for f in backward} == {"backward"} and backward[0].step == 0
    assert backward[0].event.kind == "backward_started"
    assert root_of(backward[0].svg).get("data-step") == "0"
    with pytest.raises(ValueError, match="view must be one of"):
        viz.frames(trace, view="sideways")


# --- the SVG ------------------------------------------------------------------------

def test_dom_contract_of_every_frame():
    trace, _ = lesson_network()
    for frame in viz.frames(trace):
        root = root_of(frame.svg)
        assert root.tag == SVG + "svg" and root.get("class") == "minigrad-frame"
        assert root.get("data-step") == str(frame.step)
        assert root.get("data-phase") == frame.phase
        current = current_groups(frame.svg)
        if frame.current is None:
            assert current == []
        else:
            (group,) = current
            assert group.get("data-node") == str(frame.current)
            assert group.get("data-name") == trace.names[frame.current]
        assert all(g.get("data-name") for g in node_groups(frame.svg))


def test_svg_is_deterministic_and_independent_of_graphviz(monkeypatch):
    trace, _ = lesson_network()
    first = [f.svg for f in viz.frames(trace)]
    assert first == [f.svg for f in viz.frames(trace)]
    again, _ = lesson_network()               # a new recording: new ids, same picture
    ids = re.compile(r'data-(node|src|dst|saved)="[\d.s]+"')
    assert [ids.sub("", s) for s in first] == [ids.sub("", f.svg) for f in viz.frames(again)]
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None)     # no `dot`
    assert [f.svg for f in viz.frames(trace)] == first


def test_all_frames_have_one_size():
    trace, _ = lesson_network()
    sizes = {(root_of(f.svg).get("width"), root_of(f.svg).get("height"))
             for f in viz.frames(trace, lang="zh")}
    assert len(sizes) == 1


# --- the player --------------------------------------------------------------------

def caption_of(player):
    """The Stack child shown at the player's step (child 0 is never shown: steps count
    from 1, like the slider)."""
    return player.captions.children[player.slider.value].value


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_player_moves_every_control_together(lang):
    trace, _ = lesson_network()
    player = viz.animate(trace, lang=lang)
    count = len(player.frames)
    assert player.step == 0 and 'data-step="0"' in caption_of(player)
    shown = []
    for move in (player.next, player.next, player.previous):
        move()
        shown.append(player.step)
        value = player.step + 1
        assert (player.slider.value, player.play.value, player.next_button.index,
                player.previous_button.index, player.captions.selected_index) == (value,) * 5
        assert f'data-step="{player.step}"' in caption_of(player)
    assert shown == [1, 2, 1]
    player.show(10_000)
    assert player.step == count - 1
    player.step = -5
    assert player.step == 0
    assert (player.slider.min, player.slider.max, player.play.min, player.play.max) == (
        1, count, 1, count)
    assert player.play.tooltip == ("Play" if lang == "en" else "播放")
    assert set(player.next_button.tooltips) == {"Next"}
    assert set(player.previous_button.tooltips) == {"Previous" if lang == "en" else "上一步"}


def test_player_links_live_in_the_browser():
    """Play, slider, Previous / Next and the caption are linked by jslink: no kernel needed."""
    trace, _ = lesson_network()
    player = viz.animate(trace)
    pairs = {(link.source[0], link.source[1], link.target[0], link.target[1])
             for link in player.links}
    assert (player.play, "value", player.slider, "value") in pairs
    assert (player.slider, "value", player.next_button, "index") in pairs
    assert (player.slider, "value", player.previous_button, "index") in pairs
    assert (player.slider, "value", player.captions, "selected_index") in pairs
    assert all(type(link).__name__ in ("Link", "DirectionalLink") for link in player.links)
    assert all(type(w).__module__.startswith("ipywidgets") for w in player.children)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_caption_shows_its_step_and_the_buttons_around_it(lang):
    trace, _ = lesson_network()
    player = viz.animate(trace, lang=lang)
    count, scope = len(player.frames), player.scope
    for frame, child in zip(player.frames, player.captions.children[1:]):
        html = child.value
        where = f"step {frame.step + 1} of {count}" if lang == "en" else \
            f"第 {frame.step + 1} 步，共 {count} 步"
        assert where in html and escape_text(frame.caption) in html
        assert f"{scope}{{--k:{frame.step};" in html
        value = frame.step + 1       # button i goes to step i; nth-of-type counts from 1
        assert f".mg-next button:nth-of-type({min(value + 1, count) + 1})" in html
        assert f".mg-previous button:nth-of-type({max(value - 1, 1) + 1})" in html
        if frame.current is not None:
            assert f'data-node="{frame.current}"' in html
    assert player.captions.children[0].value == ""


def escape_text(said):
    return said.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def test_picture_holds_each_frame_exactly():
    """At step k, the pieces whose span class holds k are exactly frame k's graph (and
    its source listing)."""
    from minigrad.viz.timeline import timeline
    trace, _ = lesson_network()
    player = viz.animate(trace)
    for part, draw in (("graph", lambda f: f._drawer.graph(f)),
                       ("source", lambda f: f._listing.pieces(f))):
        pieces = timeline(player.frames, part)
        for frame in player.frames:
            drawn = [svg for _, svg in draw(frame)]
            shown = [p.svg for p in pieces if frame.step in p.steps]
            assert sorted(drawn) == sorted(shown)
            assert all(svg in player.picture.value for svg in drawn)
    assert player.picture.value.count("<svg") == 3     # the graph, the panel, the source


def test_player_speed_and_view():
    trace, _ = lesson_network()
    player = viz.animate(trace, interval_ms=800, view="backward")
    assert {f.phase for f in player.frames} == {"backward"}
    player.speed.value = 2.0
    assert player.play.interval == 400
    player.speed.value = 0.5
    assert player.play.interval == 1600
    with pytest.raises(ValueError, match="nothing to replay"):
        with viz.record() as empty:
            pass
        viz.animate(empty)


def test_a_big_graph_follows_the_running_node():
    torch.manual_seed(0)
    leaves = [torch.randn(3, requires_grad=True) for _ in range(12)]
    with viz.record() as trace:
        sum(leaf.exp() * leaf for leaf in leaves).sum().backward()
    big, small = viz.animate(trace), viz.animate(lesson_network()[0])
    assert big.follows and not small.follows
    from minigrad.viz.player import MIN_LABEL, MIN_SCALE
    placed = big.frames[0]._drawer.stage.placed
    whole = big.view_rules(False, ".p")              # never below MIN_LABEL px: it scrolls
    assert f"width:max({placed.width * MIN_SCALE:.0f}px," in whole and "overflow:auto" in whole
    assert MIN_SCALE * 11 == pytest.approx(MIN_LABEL)     # 11 px: a saved tensor's label
    assert big.zoom in big.children[0].children and small.zoom not in small.children[0].children
    for frame, child in zip(big.frames, big.captions.children[1:]):
        if frame.current is not None:      # the node, with its saved tensors it shows
            fx, fy = frame._drawer.focus(frame)
            assert f"--fx:{fx:.0f}px;--fy:{fy:.0f}px" in child.value


def test_missing_ipywidgets_names_the_extra(monkeypatch):
    trace, _ = lesson_network()
    monkeypatch.setitem(sys.modules, "ipywidgets", None)
    monkeypatch.delitem(sys.modules, "minigrad.viz.player", raising=False)
    with pytest.raises(ImportError, match=r'pip install "minigrad-tutor\[widgets\]"'):
        viz.animate(trace)


# --- a recorder started after forward ------------------------------------------------

def recorded_after_forward():
    """Lesson 03's way: forward first, then a recorder around backward only."""
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    loss = (x * 2 * x.exp()).sum()
    with viz.record() as trace:
        loss.backward()
    return trace, x


def test_a_late_recorder_still_knows_what_forward_saved():
    trace, x = recorded_after_forward()
    found = trace.of_kind("node_found")
    assert [e["name"] for e in found] == ["MulBackward0", "ExpBackward0", "MulBackward0",
                                          "SumBackward0"]
    assert found == sorted(found, key=lambda e: e["sequence_nr"])
    assert trace.events.index(found[-1]) < trace.events.index(
        trace.of_kind("backward_started")[0])
    story = viz.frames(trace, view="backward", names={"x": x})
    first = story[0]
    assert first.event.kind == "backward_started"
    assert len(first.alive_saved) == 3 and first.memory_bytes == 24      # a*b: a, b; exp: out
    assert "(empty)" not in first.svg.split("mg-memory")[0]
    captions = [f.caption for f in story]
    assert "MulBackward0 unpacks 2 tensors: versions match" in captions
    assert "ExpBackward0 unpacks 1 tensor: versions match" in captions
    assert not any("unpacks 0" in c for c in captions)   # x * 2's saved 2 is no step
    assert story[-1].memory_bytes == 0
    assert all(p is not None for f in story for _, p in f.ready)
    ready_texts = " ".join(f.svg for f in story)
    assert "#?" not in ready_texts and "#∞" not in ready_texts and "#None" not in ready_texts
    assert "leaf: runs first" in ready_texts
    zh = " ".join(f.svg for f in viz.frames(trace, lang="zh", view="backward"))
    assert "叶子节点：最先运行" in zh


def test_a_late_recorder_knows_freed_and_recording_from_the_start_is_unchanged():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    with viz.record() as trace:
        y.backward()
    assert [e["name"] for e in trace.of_kind("node_found")] == ["MulBackward0",
                                                                "SumBackward0"]
    full, _ = lesson_network()
    assert not full.of_kind("node_found")        # every node was created while recording


def test_memory_chart_uses_no_colour_of_the_gradients():
    trace, _ = lesson_network()
    from minigrad.viz.frame_svg import CURRENT, FLOW_ORANGE, GRAD_BLUE
    for frame in viz.frames(trace):
        root = root_of(frame.svg)
        chart = [e for e in root.iter() if "mg-memory" in e.get("class", "")]
        colours = {e.get("fill") for group in chart for e in group.iter()} - {None}
        assert FLOW_ORANGE not in colours and GRAD_BLUE not in colours, colours
        (now,) = [e for e in chart if e.get("class") == "mg-memory-now"]
        assert now.get("fill") == CURRENT[1]


def test_the_player_steps_with_ipywidgets_7(monkeypatch):
    """Colab ships ipywidgets 7: no Stack, no HTMLStyle.  The player still builds, and
    the step the browser's links set shows that frame's caption (from the kernel)."""
    import importlib

    import ipywidgets

    from ipywidgets.widgets import widget_string

    import minigrad.viz.player as player_module
    import minigrad.viz.ipywidgets7 as stack_module
    monkeypatch.delattr(ipywidgets, "Stack")
    monkeypatch.delattr(widget_string, "HTMLStyle")
    try:
        importlib.reload(stack_module)
        importlib.reload(player_module)
        assert not stack_module.NATIVE
        player = player_module.Player(lesson_network()[0])
        assert isinstance(player.captions, stack_module.KernelStack)
        for k in (3, len(player.frames) - 1, 0):
            player.captions.selected_index = k + 1       # what jsdlink(slider, ...) sets
            (shown,) = player.captions.children
            assert f'data-step="{k}"' in shown.value
            assert player.frames[k].caption.split(":")[0] in shown.value
        player.next()
        assert f'data-step="{1}"' in player.captions.children[0].value
    finally:
        monkeypatch.undo()
        importlib.reload(stack_module)
        importlib.reload(player_module)


def test_a_notebook_gets_the_page_player_before_the_widget(monkeypatch):
    """The output a notebook saves: first the page player (what shows once the widget is
    gone with its kernel), then the widget."""
    import IPython.display
    trace, _ = lesson_network()
    player = viz.animate(trace)
    shown = []
    monkeypatch.setattr(IPython.display, "display",
                        lambda data, raw=False, metadata=None: shown.append((data, metadata)))
    player._ipython_display_()
    (page, meta), (widget, _) = shown
    assert meta == {"minigrad": "page-player"}
    assert page["text/html"].startswith('<div class="minigrad-page-player"')
    assert widget["application/vnd.jupyter.widget-view+json"]["model_id"] == player.model_id


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_player_holds_every_step_and_named_controls(lang):
    from html.parser import HTMLParser
    trace, _ = lesson_network()
    player = viz.animate(trace, lang=lang, source=True)
    player.show(2)
    html = player.page_html()

    class Tags(HTMLParser):
        def __init__(self):
            super().__init__()
            self.tags = []

        def handle_starttag(self, tag, attrs):
            self.tags.append((tag, dict(attrs)))
    parsed = Tags()
    parsed.feed(html)
    tags = parsed.tags
    root = tags[0][1]
    assert "hidden" in root and root["lang"] == lang and "mg-src" in root["class"].split()
    templates = [attrs for tag, attrs in tags if tag == "template"]
    assert [int(t["data-k"]) for t in templates] == list(range(len(player.frames)))
    for frame, template in zip(player.frames, templates):
        assert player.step_variables(frame) == {name: template[f"data-{name}"]
                                                for name in ("k", "fx", "fy", "sy")}
    captions = [attrs for tag, attrs in tags if "minigrad-caption" in attrs.get("class", "")]
    assert captions[0]["data-step"] == "2"           # the step shown, before any template
    buttons = {attrs.get("class"): attrs for tag, attrs in tags if tag == "button"}
    words = {"en": ("Play", "Previous", "Next"), "zh": ("播放", "上一步", "下一步")}[lang]
    for css_class, name in zip(("mg-play", "mg-previous", "mg-next"), words):
        assert buttons[css_class]["title"] == name
    (slider,) = [attrs for tag, attrs in tags if tag == "input"]
    assert (slider["aria-label"], slider["value"], slider["max"]) == (
        "step" if lang == "en" else "步骤", "3", str(len(player.frames)))
    assert player.picture.value.split("</style>", 1)[1].count("<svg") == html.count("<svg")
    assert f"#{root['id']}" in html and player.scope not in html


def test_the_memory_peak_is_the_peak_so_far():
    """At step k the panel's peak is the most held up to step k, not the whole run's."""
    from minigrad.viz.stage import format_bytes
    trace, _ = lesson_network()
    story = viz.frames(trace)
    memory = [f.memory_bytes for f in story]
    assert memory[0] < max(memory)                     # it grows during forward
    for frame in story:
        peak = format_bytes(max(memory[:frame.step + 1]))
        assert f"now {format_bytes(frame.memory_bytes)}, peak {peak}" in frame.svg


@pytest.mark.parametrize("lang, said", [("en", "Hook at ExpBackward0: tensor hook of y"),
                                        ("zh", "ExpBackward0 上的钩子运行：y 的张量钩子")])
def test_a_tensor_hook_is_named_after_the_tensor_when_the_student_named_it(lang, said):
    """Lesson 08 speaks of "the tensor hook of y": the caption says so once y is named."""
    w = torch.tensor([2.0, -1.0], requires_grad=True)
    with viz.record() as trace:
        y = w.exp()
        y.register_hook(lambda grad: None)
        y.sum().backward()
    named = [f.caption for f in viz.frames(trace, lang, names={"w": w, "y": y})]
    assert any(caption.startswith(said) for caption in named), named
    unnamed = [f.caption for f in viz.frames(trace, lang, names={"w": w})]
    assert not any(" y " in caption or "y 的" in caption for caption in unnamed)
