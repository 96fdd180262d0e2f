"""Read the code, actively: every lesson's question (minigrad.lessons.questions), its
choices and their explanations, and the code each is about, run in minigrad and PyTorch.

For each question, `FACTS` holds a function that runs the code the question is about
and returns the label of the choice that describes what happened: in both libraries it
must be the choice marked right.
"""
import re

import nbformat
import pytest

import minigrad
from minigrad.lessons import LESSONS, lesson_path
from minigrad.lessons.questions import QUESTIONS
from minigrad.lessons.reading import WORDS, answer, ask

real_torch = pytest.importorskip("torch")
CJK = re.compile(r"[\u4e00-\u9fff]")


def right_label(question):
    return next(label for (label, _), choice in zip(question.labelled("en"), question.choices)
                if choice.right)


# --- what each question is about, run ---------------------------------------------------

def _accumulate_in_place(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 3).sum().backward()
    g = x.grad
    (x * x).sum().backward()
    return {(3.0, 3.0): "a", (5.0, 7.0): "b", (2.0, 4.0): "c"}[tuple(g.tolist())]


def _without_the_minus(torch):
    import heapq
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    loss = (x * 2 * x.exp()).sum()

    def order(sign):
        counts = {}
        stack, seen = [loss.grad_fn], {loss.grad_fn}
        while stack:
            for child, _ in stack.pop().next_functions:
                if child is not None:
                    counts[child] = counts.get(child, 0) + 1
                    if child not in seen:
                        seen.add(child)
                        stack.append(child)
        number = (lambda n: n._sequence_nr() if callable(n._sequence_nr) else n._sequence_nr)
        ready, result, tick = [(sign * number(loss.grad_fn), 0, loss.grad_fn)], [], 1
        while ready:
            node = heapq.heappop(ready)[2]
            result.append(node)
            for child, _ in node.next_functions:
                if child is not None:
                    counts[child] -= 1
                    if counts[child] == 0:
                        heapq.heappush(ready, (sign * number(child), tick, child))
                        tick += 1
        return result

    engine, plus = order(-1), order(+1)
    position = {node: k for k, node in enumerate(plus)}
    valid = all(position[node] < position[child] for node in plus
                for child, _ in node.next_functions if child is not None)
    return "b" if valid and engine != plus and set(engine) == set(plus) else "a"


def _square(torch):
    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad_output):
            (x,) = ctx.saved_tensors
            return grad_output * 2 * x
    return Square


def _no_input_requires_grad(torch):
    result = _square(torch).apply(torch.tensor([1.0, 2.0]))
    return "b" if result.grad_fn is None and result.tolist() == [1.0, 4.0] else "a"


def _saved_when_forward_returns(torch):
    seen = {}

    class Func(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            out = x * 2
            ctx.save_for_backward(out)
            out += 1
            return out

        @staticmethod
        def backward(ctx, grad_output):
            seen["out"] = ctx.saved_tensors[0].tolist()
            return grad_output * 2

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    try:
        Func.apply(x).sum().backward()
    except RuntimeError:
        return "c"
    return {(2.0, 4.0): "a", (3.0, 5.0): "b"}[tuple(seen["out"])]


def _two_bumps(torch):
    class InplaceReLU(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.clamp_(min=0)
            ctx.mark_dirty(x)
            ctx.save_for_backward(x)
            return x

        @staticmethod
        def backward(ctx, grad_output):
            (x,) = ctx.saved_tensors
            return grad_output * (x > 0)

    h = torch.tensor([-1.0, 2.0], requires_grad=True) * 1
    InplaceReLU.apply(h)
    return "abc"[h._version]


def _function_in_no_grad(torch):
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        result = w * w                                  # Mul.apply(w, w)
    if result.tolist() != [1.0, 4.0]:                   # forward did not run
        return "b"
    return "c" if result.grad_fn is None and not result.requires_grad else "a"


def _materialized_zeros(torch):
    seen = []

    class Two(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, grad_first, grad_second):
            seen.append(grad_second)
            return grad_first * 2

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    Two.apply(x)[0].sum().backward()
    if not seen:
        return "c"
    return "a" if seen[0] is None else "b" if seen[0].tolist() == [0.0, 0.0] else "?"


def _retain_grad_last(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.register_hook(lambda g: g * 2)
    y.sum().backward()
    return "c" if y.grad is None else {(1.0, 1.0): "a", (2.0, 2.0): "b"}[tuple(y.grad.tolist())]


def _twice_without_retain(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * 2).sum()
    loss.backward()
    try:
        loss.backward()
    except RuntimeError as error:
        return "b" if "a second time" in str(error) else "?"
    return "c" if x.grad.tolist() == [4.0, 4.0] else "a"


def _gradient_has_a_graph(torch):
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    g = torch.autograd.grad(x.sin().sum(), x, create_graph=True)[0]
    return {None: "a", "MulBackward0": "b", "SinBackward0": "c"}[
        g.grad_fn.name() if g.grad_fn is not None else None]


def _no_copy_in_place(torch):
    x = torch.tensor([1.0, 2.0])
    moved = x.to("cpu")
    if moved is x:
        return "b"
    return "c" if moved.data_ptr() == x.data_ptr() else "a"


def _rows_sum_to_zero(torch):
    logits = torch.tensor([[1.0, 2.0, 0.5], [0.1, -1.0, 2.0], [0.0, 0.0, 0.0],
                           [3.0, 1.0, 2.0]], requires_grad=True)
    torch.nn.functional.cross_entropy(logits, torch.tensor([0, 2, 1, 0])).backward()
    sums = logits.grad.sum(1).tolist()
    for label, value in (("a", 0.25), ("b", 0.0), ("c", 1.0)):
        if all(abs(s - value) < 1e-6 for s in sums):
            return label
    return "?"


def _probe_at_zero(torch):
    x = torch.tensor([0.5, 1.0])
    t = torch.tensor([1.0, -2.0])
    leaf = x.clone().requires_grad_()
    out = leaf.sin()
    u = torch.zeros_like(out).requires_grad_()
    (jtu,) = torch.autograd.grad(out, leaf, u, create_graph=True)
    (jt,) = torch.autograd.grad((jtu * t).sum(), u)
    if all(abs(a - b) < 1e-6 for a, b in zip(jt.tolist(), (x.cos() * t).tolist())):
        return "b"
    return "a" if not any(jt.tolist()) else "?"


def _saved_output_object(torch):
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    y = x.exp()
    r = y.grad_fn._saved_result
    if r is y:
        return "a"
    return "b" if r.data_ptr() == y.data_ptr() and torch.equal(r, y) else "c"


def _copy_slices(torch):
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = a.clone()
    b[1:].mul_(2)
    return {"MulBackward0": "a", "CopySlices": "b",
            "CloneBackward0": "c"}[type(b.grad_fn).__name__]


def _hessian_of_cubes(torch):
    h = torch.autograd.functional.hessian(lambda x: (x ** 3).sum(),
                                          torch.tensor([1.0, 2.0, 3.0]))
    if tuple(h.shape) == (3,):
        return "a"
    return "b" if h.tolist() == [[6.0, 0.0, 0.0], [0.0, 12.0, 0.0], [0.0, 0.0, 18.0]] else "c"


FACTS = {
    "07-materialized-zeros": _materialized_zeros,
    "08-retain-grad-last": _retain_grad_last,
    "10-twice-without-retain": _twice_without_retain,
    "12-gradient-has-a-graph": _gradient_has_a_graph,
    "15-no-copy-in-place": _no_copy_in_place,
    "16-rows-sum-to-zero": _rows_sum_to_zero,
    "14-probe-at-zero": _probe_at_zero,
    "01-accumulate-in-place": _accumulate_in_place,
    "03-without-the-minus": _without_the_minus,
    "04-no-input-requires-grad": _no_input_requires_grad,
    "05-saved-when-forward-returns": _saved_when_forward_returns,
    "06-two-bumps": _two_bumps,
    "02-function-in-no-grad": _function_in_no_grad,
    "09-saved-output-object": _saved_output_object,
    "11-copy-slices": _copy_slices,
    "13-hessian-of-cubes": _hessian_of_cubes,
}


@pytest.mark.parametrize("question_id", list(QUESTIONS))
def test_the_right_choice_is_what_minigrad_and_pytorch_do(question_id):
    assert question_id in FACTS, f"no test runs the code of {question_id}"
    want = right_label(QUESTIONS[question_id])
    assert FACTS[question_id](minigrad) == want
    assert FACTS[question_id](real_torch) == want


# --- the questions as data ----------------------------------------------------------------

@pytest.mark.parametrize("question_id", list(QUESTIONS))
def test_each_question_has_choices_with_one_right_and_every_explanation_in_both_languages(
        question_id):
    question = QUESTIONS[question_id]
    assert question.id == question_id and question.lesson in {l.slug for l in LESSONS}
    assert len(question.choices) >= 3 and sum(c.right for c in question.choices) == 1
    for text in (question.en, *[c.en for c in question.choices],
                 *[c.why_en for c in question.choices]):
        assert text.strip() and not CJK.search(text)
    for text in (question.zh, *[c.why_zh for c in question.choices]):
        assert CJK.search(text), text
    for choice in question.choices:               # (a choice may be code alone: `tensor(...)`)
        assert CJK.search(choice.zh) or choice.zh == choice.en, choice.zh


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_choice_gets_its_own_explanation(lang):
    for question in QUESTIONS.values():
        for (label, _), choice in zip(question.labelled(lang), question.choices):
            result = answer(question.id, label, lang=lang)
            assert result.passed is choice.right
            why = choice.why_zh if lang == "zh" else choice.why_en
            prefix = WORDS[lang]["right" if choice.right else "wrong"]
            assert result.message == prefix + why[:1].upper() + why[1:]
            assert f"<code>{question.id}</code>" in result._repr_html_()


def test_a_choice_that_does_not_exist_is_named():
    result = answer("03-without-the-minus", "z", lang="en")
    assert not result.passed and "No choice 'z'" in result.message and "a, b, c" in result.message
    assert answer("03-without-the-minus", " B) ", lang="en").passed    # as a student types it
    with pytest.raises(KeyError, match="no question"):
        ask("99-nothing")


def test_ask_shows_the_question_as_text_html_and_a_widget():
    view = ask("04-no-input-requires-grad", lang="zh")
    assert repr(view).startswith("问题：") and '用 answer("04-no-input-requires-grad", "a")' in repr(view)
    assert "<code>Function.apply</code>" in view._repr_html_()
    box = view.widget()
    choices, button, feedback = box.children[1:]
    assert [value for _, value in choices.options] == ["a", "b", "c"]
    assert all("`" not in label for label, _ in choices.options)
    button.click()
    assert feedback.value == "请先选一个答案。"
    choices.value = "b"
    button.click()
    assert "✓" in feedback.value and "_run_unrecorded" in feedback.value


# --- the lessons ask them --------------------------------------------------------------

def asked(lesson):
    """The ids the lesson's notebook asks (en solution), from its ask("...") calls."""
    notebook = nbformat.read(lesson_path(lesson, "en", solutions=True), as_version=4)
    return [found for cell in notebook.cells if cell.cell_type == "code"
            for found in re.findall(r"""\bask\(\s*["']([^"']+)["']""", cell.source)]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_each_lesson_asks_its_own_question(lesson):
    mine = [q.id for q in QUESTIONS.values() if q.lesson == lesson.slug]
    assert len(mine) == 1 and asked(lesson) == mine
