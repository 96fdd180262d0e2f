"""The view "apply" of the player (lesson 04): each op in the five steps of Function.apply,
asserted on the frames' data and their SVG, without a browser."""
import re

import pytest

import minigrad as torch
import minigrad.viz as viz
from minigrad import tracing
from minigrad.autograd import Function


class Square(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * 2 * x


def recorded():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with viz.record() as trace:
        y = Square.apply(x)
        loss = y.sum()
        loss.backward()
    return trace, {"x": x, "y": y, "loss": loss}


def test_each_op_shows_its_five_steps_in_forward_only():
    trace, names = recorded()
    story = viz.frames(trace, view="apply", names=names)
    assert [f.event.kind for f in story] == [
        "apply_node_made", "apply_edges_connected", "apply_forward_ran", "node_created",
        "tensor_saved",                                           # SquareBackward saves x
        "apply_node_made", "apply_edges_connected", "apply_forward_ran", "node_created"]
    assert {f.phase for f in story} == {"forward"} and [f.step for f in story] == list(range(9))
    assert [f.caption[:2] for f in story] == ["1.", "2.", "3.", "4.", "5.", "1.", "2.", "3.", "4."]
    assert story[0].caption.startswith("1. Square.apply makes the node SquareBackward")
    assert "asks to save 1 tensor" in story[2].caption
    assert story[3].caption == "4. the output is attached: its grad_fn is SquareBackward"


def test_the_edges_and_leaves_appear_at_step_2_the_output_at_step_4():
    trace, names = recorded()
    story = viz.frames(trace, view="apply", names=names)
    square = story[0].current
    leaf = trace.of_kind("apply_edges_connected")[0]["inputs"][0][0]
    made, connected, ran, attached = story[:4]
    assert made.unconnected == [str(square)] and square in made.nodes_shown
    assert leaf not in made.nodes_shown and leaf in connected.nodes_shown
    assert f'data-dst="{square}"' not in made.svg and f'data-dst="{square}"' in connected.svg
    assert ran.unattached == [square] and attached.unattached == []
    assert not made.saved_states and story[4].saved_states       # saved at step 5 only


def test_the_other_views_fold_the_steps_into_the_frames_they_had():
    trace, names = recorded()
    forward = viz.frames(trace, view="forward", names=names)
    assert [f.caption for f in forward] == ["SquareBackward is created: it saves 1 tensor for "
                                            "backward", "SumBackward0 is created"]
    assert all(not f.unconnected and not f.unattached for f in viz.frames(trace))


def test_each_step_highlights_its_line_of_function_apply():
    trace, names = recorded()
    story = viz.frames(trace, view="apply", names=names)
    statements = ["node = cls._backward_cls()", "edge = arg._gradient_edge()",
                  "outputs = cls._run_forward(node, args)",
                  "outputs = _attach_outputs(node, args, outputs)",
                  "saved.append(None if tensor is None else SavedTensor(tensor, node, slot))"]
    for frame, statement in zip(story, statements):
        assert frame.where.function == "Function.apply"
        listing = story[0]._listing
        assert f'data-line="{frame.where.line}"' in "".join(svg for _, svg in listing.pieces(frame))
        with open(frame.where.file, encoding="utf-8") as source:
            assert source.read().splitlines()[frame.where.line - 1].strip().startswith(statement)


def test_a_saved_number_is_no_step_of_its_own():
    """x * 2 saves the number 2 (as PyTorch's MulBackward0 does), which no picture shows."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with tracing.record() as trace:
        x * 2
    story = viz.frames(trace, view="apply")
    assert [f.event.kind for f in story][-1] == "node_created" and len(story) == 4
    assert "asks to save" not in story[2].caption
    assert "(None for an input that needs no gradient)" in story[1].caption


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_player_plays_the_apply_view(lang):
    trace, names = recorded()
    player = viz.animate(trace, lang=lang, view="apply", names=names, source=True)
    assert len(player.frames) == 9 and player.side.index == 1
    first = player.captions.children[1].value
    assert ("创建节点 SquareBackward" if lang == "zh" else "makes the node SquareBackward") in first
    assert re.search(r"第 1 步，共 9 步|step 1 of 9", first)


def test_an_unknown_view_names_apply_among_the_views():
    trace, _ = recorded()
    with pytest.raises(ValueError, match="'apply'"):
        viz.frames(trace, view="steps")
