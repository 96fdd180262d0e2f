"""Every checker rejects typical wrong answers with the hint that names the mistake.

Each WRONG entry is (exercise id, wrong answer, expected hint key); every
exercise has at least three distinct keys.  The message must be the key's
text in the requested language.
"""
import collections

import numpy as np
import pytest

import minigrad as torch
from minigrad import settings
from minigrad.autograd import Function
from minigrad.autograd.function import once_differentiable
from minigrad.autograd.graph import AccumulateGrad
from minigrad.exercises import EXERCISES, _messages, check


def fn(forward, backward=None, name="Answer"):
    """A Function subclass from two plain functions."""
    def no_backward(ctx, *grads):
        raise RuntimeError("backward should not be reached")
    return type(name, (Function,), {"forward": staticmethod(forward),
                                    "backward": staticmethod(backward or no_backward)})


def saving_output(op):
    def forward(ctx, x):
        y = op(x)
        ctx.save_for_backward(y)
        return y
    return forward


def saving_inputs(op):
    def forward(ctx, *args):
        ctx.save_for_backward(*[a for a in args if isinstance(a, torch.Tensor)])
        ctx.args = [a for a in args if not isinstance(a, torch.Tensor)]
        return op(*args)
    return forward


def saved(ctx):
    return ctx.saved_tensors


exp_forward = saving_output(lambda x: x.exp())
sigmoid_forward = saving_output(lambda x: 1 / (1 + (-x).exp()))
tanh_forward = saving_output(lambda x: x.tanh())
relu_forward = saving_inputs(lambda x: x.clamp(min=0))


def relu_in_place(ctx, x):
    x.clamp_(min=0)
    return x


def mul_forward(ctx, x, c):
    ctx.c = c
    return x * c


def mul_saving_constant(ctx, x, c):
    ctx.save_for_backward(c)
    return x * c


def seed_forward(keep_w=False, save=("x", "y", "w", "out"), inputs_on_ctx=False,
                 out_on_ctx=False):
    """PyTorch 2.13's Func: w = x·z, out = x·y + y·z + w·y."""
    def forward(ctx, x, y, z):
        w = x * z
        out = x * y + y * z + w * y
        names = {"x": x, "y": y, "w": w, "out": out, "z": z}
        ctx.save_for_backward(*[names[n] for n in save])
        ctx.z = z
        if keep_w:
            ctx.w = w
        if inputs_on_ctx:
            ctx.x, ctx.y = x, y
        if out_on_ctx:
            ctx.out = out
        return out
    return forward


def seed_backward(gz=False, w_term=True):
    def backward(ctx, g):
        x, y = saved(ctx)[:2]
        z = ctx.z
        gx = g * (y + y * z) if w_term else g * y
        gy = g * (x + z + x * z) if w_term else g * (x + z)
        return gx, gy, (g if gz else None)
    return backward


def inplace_dirty(ctx, x):
    x.clamp_(min=0)
    ctx.mark_dirty(x)
    ctx.save_for_backward(x)
    return x


def inplace_undeclared(ctx, x):
    x.clamp_(min=0)
    ctx.save_for_backward(x)
    return x


def matmul_forward(ctx, a, b):
    ctx.save_for_backward(a, b)
    return a @ b


def max_forward(mark=True, index_dtype=None, only_values=False):
    def forward(ctx, x):
        values, indices = x.max(dim=1)
        if index_dtype is not None:
            indices = indices.to(index_dtype)
        if mark:
            ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        ctx.columns = x.shape[1]
        return values if only_values else (values, indices)
    return forward


def max_backward(ctx, grad_values, grad_indices):
    (indices,) = saved(ctx)
    one_hot = (torch.arange(ctx.columns) == indices.reshape(-1, 1)).to(grad_values.dtype)
    return one_hot * grad_values.reshape(-1, 1)


def max_backward_everywhere(ctx, grad_values, grad_indices):
    (indices,) = saved(ctx)
    return torch.ones(indices.shape[0], ctx.columns, dtype=grad_values.dtype) * \
        grad_values.reshape(-1, 1)


def linear_forward(ctx, x, w, b):
    ctx.save_for_backward(x, w)
    return x @ w.T + b


def linear_backward(use_flags=True, sum_bias=True, transpose_weight=False, count=3):
    def backward(ctx, g):
        x, w = saved(ctx)
        needs = ctx.needs_input_grad if use_flags else (True, True, True)
        gx = g @ w if needs[0] else None
        gw = (x.T @ g if transpose_weight else g.T @ x) if needs[1] else None
        gb = (g.sum(0) if sum_bias else g) if needs[2] else None
        return (gx, gw, gb)[:count]
    return backward


def dfs_order(output):
    order, seen, stack = [], set(), [(output.grad_fn, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            order.append(node)
        elif node not in seen:
            seen.add(node)
            stack.append((node, True))
            stack.extend((child, False) for child, _ in node.next_functions if child is not None)
    return order[::-1]


def bfs_without_seen(output):
    order, queue = [], [output.grad_fn]
    while queue:
        node = queue.pop(0)
        order.append(node)
        queue.extend(child for child, _ in node.next_functions if child is not None)
    return order


def counts(output, distinct=False, revisit=False, with_root=True, outgoing=False):
    result, stack, seen = {output.grad_fn: 0}, [output.grad_fn], {output.grad_fn}
    while stack:
        node = stack.pop()
        children = [c for c, _ in node.next_functions if c is not None]
        if outgoing:
            result[node] = len(children)
        for child in (set(children) if distinct else children):
            result[child] = result.get(child, 0) + (0 if outgoing else 1)
            if revisit or child not in seen:
                seen.add(child)
                stack.append(child)
    if not with_root:
        del result[output.grad_fn]
    return result


def second_derivative(create_graph=True, second=True, sum_first=True):
    def answer(f, x):
        y = f(x).sum() if sum_first else f(x)
        (g,) = torch.autograd.grad(y, x, create_graph=create_graph)
        if not second:
            return g
        (h,) = torch.autograd.grad(g.sum(), x)
        return h
    return answer


def second_with_backward(f, x):
    f(x).sum().backward(create_graph=True)
    x.grad.sum().backward()
    result = x.grad.detach()
    x.grad = None
    return result


def sigmoid_backward_in_place(ctx, g):
    (y,) = saved(ctx)
    y.mul_(1 - y)                 # reuses the saved output's memory: version moves
    return g * y


def relu_backward_in_place(ctx, g):
    (x,) = saved(ctx)
    x.clamp_(min=0)
    return g * (x > 0).to(g.dtype)


def cube_forward(ctx, x):
    ctx.save_for_backward(x)
    return x * x * x


@once_differentiable
def cube_backward_once(ctx, g):
    (x,) = saved(ctx)
    return g * 3 * x * x


def cube_backward_numpy(ctx, g):
    (x,) = saved(ctx)
    return g * torch.tensor(3 * x.detach().numpy() ** 2)


def detached_apply(forward, backward):
    """A Function whose apply override detaches the output: backward is never reached."""
    cls = fn(forward, backward)

    def apply(*args):
        return Function.apply.__func__(cls, *args).detach()
    cls.apply = staticmethod(apply)
    return cls


# lesson 01: predicted edges
EDGES = {("AddBackward0", "ExpBackward0"), ("AddBackward0", "DivBackward0"),
         ("ExpBackward0", "MulBackward0"), ("MulBackward0", "a"), ("MulBackward0", "b"),
         ("DivBackward0", "SinBackward0"), ("SinBackward0", "a")}


def predicted(edges):
    return lambda: edges


# lesson 10: two losses on one graph
def separate(retain_first=True, retain_last=False, clone=True, reset=True, summed=False):
    def separate_gradients(loss_a, loss_b, w):
        if summed:
            (loss_a + loss_b).backward()
            return w.grad, w.grad
        loss_a.backward(retain_graph=retain_first)
        grad_a = w.grad.clone() if clone else w.grad
        if reset:
            w.grad = None
        loss_b.backward(retain_graph=retain_last)
        return grad_a, w.grad
    return separate_gradients


# lesson 14: Mul with a jvp
def mul_with_jvp(jvp, save="forward"):
    def forward(ctx, a, b):
        if save == "forward":
            ctx.save_for_forward(a, b)
        else:
            ctx.save_for_backward(a, b)
        return a * b
    members = {"forward": staticmethod(forward)}
    if jvp is not None:
        members["jvp"] = staticmethod(jvp)
    return type("Mul", (Function,), members)


# lesson 01: a Jacobian, row by row
def jacobian_rows(seed="one_hot", clear=True, clone=True, transpose=False):
    def jacobian(f, x):
        m = f(x).shape[0]
        rows = []
        for i in range(m):
            v = torch.ones(m, dtype=x.dtype) if seed == "ones" else torch.eye(m, dtype=x.dtype)[i]
            if clear:
                x.grad = None
            f(x).backward(v)
            rows.append(x.grad.clone() if clone else x.grad)
        result = torch.stack(rows)
        return result.T if transpose else result
    return jacobian


# lesson 03: backward by hand
def backprop(add=True, call_leaves=False, engine=False):
    import exercise_answers

    def backpropagate(output, inputs):
        if engine:
            return list(torch.autograd.grad(output, inputs, allow_unused=True))
        received, found = {output.grad_fn: torch.ones_like(output)}, {}
        with torch.no_grad():
            for node in exercise_answers.topo_order(output):
                grad = received.pop(node, None)
                if grad is None:
                    continue
                if isinstance(node, AccumulateGrad):
                    if call_leaves:
                        node(grad)
                    found[id(node.variable)] = grad
                    continue
                grads = node(grad)
                for (child, _), g in zip(node.next_functions,
                                         grads if isinstance(grads, tuple) else (grads,)):
                    if child is not None and g is not None:
                        received[child] = received[child] + g if add and child in received else g
        return [found.get(id(t)) for t in inputs]
    return backpropagate


# lesson 04: the batched matrix product
def batched(grad_a, grad_b):
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a @ b

    def backward(ctx, g):
        a, b = saved(ctx)
        return grad_a(a, b, g), grad_b(a, b, g)
    return fn(forward, backward)


# lesson 02: newton_sqrt
def newton(record_all=False, cut=False):
    def newton_sqrt(a):
        x = a.clone()
        with torch.set_grad_enabled(record_all):
            while ((x * x - a).abs() > 1e-10 * a).any():
                x = (x + a / x) / 2
        return (x + (a.detach() if cut else a) / x) / 2 + (0 * a if cut else 0)
    return newton_sqrt


def finetune(freeze=True, clear=True, no_grad_update=True):
    import exercise_answers

    def finetune_head(params, x, y, steps, lr):
        if freeze:
            params["w1"].requires_grad_(False)
            params["b1"].requires_grad_(False)
        losses = []
        for _ in range(steps):
            loss = ((exercise_answers.two_layers(x, *params.values()) - y) ** 2).mean()
            losses.append(loss.item())
            if clear:
                params["w2"].grad = params["b2"].grad = None
            loss.backward()
            with torch.set_grad_enabled(not no_grad_update):
                params["w2"] -= lr * params["w2"].grad
                params["b2"] -= lr * params["b2"].grad
        return losses
    return finetune_head


WRONG = [
    ("exp", detached_apply(exp_forward, lambda ctx, g: g * saved(ctx)[0]), "no_grad_fn"),
    ("tanh_saves_output", detached_apply(tanh_forward, lambda ctx, g: g * (1 - saved(ctx)[0] ** 2)),
     "no_grad_fn"),
    ("exp", fn(exp_forward, lambda ctx, g: saved(ctx)[0]), "forgot_grad_output"),
    ("exp", fn(exp_forward, lambda ctx, g: -g * saved(ctx)[0]), "wrong_sign"),
    ("exp", fn(exp_forward, lambda ctx, g: (g * saved(ctx)[0]).numpy()), "returned_numpy"),
    ("exp", fn(lambda ctx, x: np.exp(x.detach().numpy())), "returned_numpy"),
    ("exp", fn(exp_forward, lambda ctx, g: g * saved(ctx)[0]).forward, "forward_not_apply"),
    ("sigmoid", fn(sigmoid_forward, lambda ctx, g: saved(ctx)[0] * (1 - saved(ctx)[0])),
     "forgot_grad_output"),
    ("sigmoid", fn(sigmoid_forward, lambda ctx, g: g * saved(ctx)[0]), "wrong_grad"),
    ("sigmoid", fn(sigmoid_forward, lambda ctx, g: g * saved(ctx)[0] * (saved(ctx)[0] - 1)),
     "wrong_sign"),
    ("sigmoid", fn(saving_output(lambda x: 1 / (1 + x.exp()))), "wrong_forward"),
    ("sigmoid", fn(sigmoid_forward, sigmoid_backward_in_place), "saved_then_modified"),
    ("relu", fn(relu_forward, lambda ctx, g: g * (saved(ctx)[0] >= 0).to(g.dtype)),
     "relu_grad_at_zero"),
    ("relu", fn(relu_forward, lambda ctx, g: (saved(ctx)[0] > 0).to(g.dtype)),
     "forgot_grad_output"),
    ("relu", fn(relu_in_place), "input_modified"),
    ("relu", fn(relu_forward, relu_backward_in_place), "saved_then_modified"),
    ("relu", fn(saving_inputs(lambda x: x.clamp(min=0).to(torch.float64)),
                lambda ctx, g: g * (saved(ctx)[0] > 0).to(g.dtype)), "wrong_dtype"),
    ("mul_constant", fn(mul_forward, lambda ctx, g: (g * ctx.c, g)), "grad_for_non_tensor"),
    ("mul_constant", fn(mul_forward, lambda ctx, g: g * ctx.c), "wrong_num_grads"),
    ("mul_constant", fn(mul_forward, lambda ctx, g: (g, None)), "wrong_factor"),
    ("mul_constant", fn(mul_saving_constant), "saved_non_tensor"),
    ("add_broadcast", fn(lambda ctx, a, b: a + b, lambda ctx, g: g), "wrong_num_grads"),
    ("add_broadcast", fn(lambda ctx, a, b: a + b, lambda ctx, g: (g.sum(0), g.sum(0))),
     "wrong_grad_shape"),
    ("add_broadcast", fn(lambda ctx, a, b: a * b), "wrong_forward"),
    ("seed_func", fn(seed_forward(keep_w=True), seed_backward()), "tensor_on_ctx"),
    ("seed_func", fn(seed_forward(inputs_on_ctx=True), seed_backward()), "inputs_on_ctx"),
    ("seed_func", fn(seed_forward(out_on_ctx=True), seed_backward()), "output_on_ctx"),
    ("seed_func", fn(seed_forward(), seed_backward(w_term=False)), "forgot_w_term"),
    ("seed_func", fn(seed_forward(), seed_backward(gz=True)), "grad_for_non_tensor"),
    ("seed_func", fn(seed_forward(save=("x", "y", "z"))), "saved_non_tensor"),
    ("tanh_saves_output", fn(saving_inputs(lambda x: x.tanh()),
                             lambda ctx, g: g * (1 - saved(ctx)[0].tanh() ** 2)),
     "saved_input_not_output"),
    ("tanh_saves_output", fn(tanh_forward, lambda ctx, g: 1 - saved(ctx)[0] ** 2),
     "forgot_grad_output"),
    ("tanh_saves_output", fn(tanh_forward, lambda ctx, g: g * (1 - saved(ctx)[0])),
     "wrong_grad"),
    ("tanh_saves_output", fn(tanh_forward, lambda ctx, g: g * (saved(ctx)[0] ** 2 - 1)),
     "wrong_sign"),
    ("inplace_relu", fn(inplace_undeclared, lambda ctx, g: g * (saved(ctx)[0] > 0).to(g.dtype)),
     "forgot_mark_dirty"),
    ("inplace_relu", fn(relu_forward, lambda ctx, g: g * (saved(ctx)[0] > 0).to(g.dtype)),
     "not_in_place"),
    ("inplace_relu", fn(inplace_dirty, lambda ctx, g: g * (saved(ctx)[0] >= 0).to(g.dtype)),
     "mask_after_clamp"),
    ("inplace_relu", fn(inplace_dirty, lambda ctx, g: (saved(ctx)[0] > 0).to(g.dtype)),
     "forgot_grad_output"),
    ("matmul", fn(matmul_forward, lambda ctx, g: (g @ saved(ctx)[1].T, saved(ctx)[0].T @ g)),
     "ignored_needs_input_grad"),
    ("matmul", fn(matmul_forward, lambda ctx, g: (g @ saved(ctx)[1], saved(ctx)[0].T @ g)),
     "matmul_transpose"),
    ("matmul", fn(matmul_forward, lambda ctx, g: (saved(ctx)[0].T @ g, g @ saved(ctx)[1].T)),
     "grads_swapped"),
    ("matmul", fn(matmul_forward, lambda ctx, g: ((g @ saved(ctx)[1].T).numpy(), None)),
     "returned_numpy"),
    ("max_with_index", fn(max_forward(mark=False), max_backward),
     "forgot_mark_non_differentiable"),
    ("max_with_index", fn(max_forward(), lambda ctx, g: g), "backward_args"),
    ("max_with_index", fn(max_forward(), max_backward_everywhere), "grad_not_to_argmax"),
    ("max_with_index", fn(max_forward(index_dtype=torch.float32), max_backward),
     "indices_dtype"),
    ("max_with_index", fn(max_forward(only_values=True), max_backward),
     "return_values_and_indices"),
    ("clip_grad_hook", lambda grad: grad.clamp_(-1, 1), "hook_modified_grad"),
    ("clip_grad_hook", lambda grad: None, "hook_returned_none"),
    ("clip_grad_hook", lambda grad: grad.clamp(0, 1), "wrong_clip_range"),
    ("clip_grad_hook", lambda grad: np.clip(grad.numpy(), -1, 1), "returned_numpy"),
    ("clip_grad_hook", 42, "not_callable"),
    ("pack_float16", (lambda t: t, lambda t: t), "pack_not_half"),
    ("pack_float16", (lambda t: t.half(), lambda p: p), "unpack_dtype"),
    ("pack_float16", (lambda t: t.half(), lambda p: p.float() * 2), "unpack_values"),
    ("pack_float16", (lambda t: (t, t.half()), lambda p: p[1].float()), "pack_not_half"),
    ("pack_float16", lambda t: t.half(), "not_hook_pair"),
    ("pack_float16", (lambda t: t.half(), lambda p: p.float()), "pack_other_dtypes"),
    ("topo_order", dfs_order, "not_engine_order"),
    ("topo_order", lambda output: dfs_order(output)[::-1], "reversed_order"),
    ("topo_order", lambda output: [n for n in dfs_order(output)
                                   if not isinstance(n, AccumulateGrad)],
     "missing_accumulate_grad"),
    ("topo_order", bfs_without_seen, "duplicate_nodes"),
    ("topo_order", lambda output: [n.name() for n in dfs_order(output)], "not_nodes"),
    ("topo_order", lambda output: set(dfs_order(output)), "not_a_list"),
    ("count_dependencies", lambda output: counts(output, distinct=True), "count_each_edge"),
    ("count_dependencies", lambda output: counts(output, revisit=True), "counted_paths"),
    ("count_dependencies", lambda output: counts(output, with_root=False), "root_missing"),
    ("count_dependencies", lambda output: counts(output, outgoing=True), "counted_outgoing"),
    ("count_dependencies", lambda output: {n: 1 for n in counts(output)}, "wrong_counts"),
    ("count_dependencies", lambda output: list(counts(output)), "not_a_dict"),
    ("second_derivative", second_derivative(create_graph=False), "forgot_create_graph"),
    ("second_derivative", second_derivative(second=False), "returned_first_derivative"),
    ("second_derivative", second_with_backward, "grad_accumulated"),
    ("second_derivative", second_derivative(sum_first=False), "needs_sum"),
    ("second_derivative", lambda f, x: second_derivative()(f, x).numpy(), "returned_numpy"),
    ("cube_double_backward", fn(cube_forward, cube_backward_once),
     "backward_not_differentiable"),
    ("cube_double_backward", fn(cube_forward, cube_backward_numpy),
     "backward_not_differentiable"),
    ("cube_double_backward", fn(cube_forward, lambda ctx, g: 3 * saved(ctx)[0] ** 2),
     "forgot_grad_output"),
    ("cube_double_backward", fn(cube_forward, lambda ctx, g: g * saved(ctx)[0] ** 2),
     "wrong_factor"),
    ("linear", fn(linear_forward, linear_backward(use_flags=False)), "ignored_needs_input_grad"),
    ("linear", fn(linear_forward, linear_backward(transpose_weight=True)),
     "weight_grad_transposed"),
    ("linear", fn(linear_forward, linear_backward(count=2)), "wrong_num_grads"),
    ("jacobian", jacobian_rows(seed="ones"), "jacobian_every_row_the_sum"),
    ("jacobian", jacobian_rows(clear=False), "jacobian_accumulated"),
    ("jacobian", jacobian_rows(seed="ones", clear=False), "jacobian_every_row_the_sum"),
    ("jacobian", jacobian_rows(transpose=True), "jacobian_transposed"),
    ("jacobian", lambda f, x: list(jacobian_rows()(f, x)), "jacobian_not_a_tensor"),
    ("backpropagate", backprop(add=False), "add_the_gradients"),
    ("backpropagate", backprop(call_leaves=True), "called_accumulate_grad"),
    ("backpropagate", backprop(engine=True), "used_the_engine"),
    ("batched_matmul", batched(lambda a, b, g: g @ b, lambda a, b, g: (a.mT @ g).sum(0)),
     "matmul_shapes_dont_fit"),
    ("batched_matmul", batched(lambda a, b, g: g @ b.T, lambda a, b, g: a[0].T @ g[0]),
     "batch_not_summed"),
    ("batched_matmul", batched(lambda a, b, g: g @ b.T, lambda a, b, g: (g.mT @ a).sum(0)),
     "batched_grad_transposed"),
    ("batched_matmul", batched(lambda a, b, g: -(g @ b.T), lambda a, b, g: (a.mT @ g).sum(0)),
     "wrong_sign"),
    ("straight_through", lambda x: x.round(), "ste_zero_gradient"),
    ("straight_through", lambda x: x.round().detach(), "ste_no_gradient"),
    ("straight_through", lambda x: x * 1, "ste_not_rounded"),
    ("newton_sqrt", newton(record_all=True), "newton_graph_grows"),
    ("newton_sqrt", newton(cut=True), "newton_cut_off"),
    ("newton_sqrt", lambda a: a.sqrt(), "newton_no_sqrt"),
    ("finetune_head", finetune(freeze=False), "body_has_grad"),
    ("finetune_head", finetune(clear=False), "zero_the_grads"),
    ("finetune_head", finetune(no_grad_update=False), "update_in_no_grad"),
    ("graph_edges", predicted({(b, a) for a, b in EDGES}), "edges_reversed"),
    ("graph_edges", predicted(EDGES | {("DivBackward0", "k")}), "constant_has_no_node"),
    ("graph_edges", predicted(EDGES - {("SinBackward0", "a")}), "shared_leaf_two_edges"),
    ("graph_edges", predicted({(a, "AccumulateGrad" if b in "ab" else b) for a, b in EDGES}),
     "leaf_names"),
    ("graph_edges", predicted({(a.replace("Backward0", ""), b) for a, b in EDGES}), "node_names"),
    ("graph_edges", predicted(["AddBackward0", "ExpBackward0"]), "edges_format"),
    ("separate_gradients", separate(retain_first=False), "retain_the_first"),
    ("separate_gradients", separate(summed=True), "summed_losses"),
    ("separate_gradients", separate(clone=False, reset=False), "first_gradient_overwritten"),
    ("separate_gradients", separate(reset=False), "gradients_accumulated"),
    ("separate_gradients", separate(retain_last=True), "kept_the_graph"),
    ("offload_to_cpu", (lambda t: t.cpu(), lambda p: p), "forgot_device"),
    ("offload_to_cpu", (lambda t: (t.device, t.cpu()), lambda p: p[1].to("cuda")),
     "unpack_sends_to_cuda"),
    ("offload_to_cpu", (lambda t: (t.device, t.numpy()), lambda p: torch.from_numpy(p[1])),
     "numpy_needs_detach"),
    ("offload_to_cpu", (lambda t: (t.device, t.cpu()), lambda p: p), "not_a_tensor"),
    ("offload_to_cpu", (lambda t: (t.device, t.cpu().double()), lambda p: p[1].to(p[0])),
     "unpack_changed_tensor"),
    ("mul_jvp", mul_with_jvp(lambda ctx, a_t, b_t: a_t * ctx.saved_tensors[1]),
     "product_rule_one_term"),
    ("mul_jvp", mul_with_jvp(lambda ctx, a_t, b_t: sum(ctx.saved_tensors)), "forgot_tangents"),
    ("mul_jvp", mul_with_jvp(lambda ctx, a_t, b_t: (a_t * ctx.saved_tensors[1],
                                                    ctx.saved_tensors[0] * b_t)),
     "one_tangent_per_output"),
    ("mul_jvp", mul_with_jvp(lambda ctx, a_t, b_t: a_t * ctx.saved_tensors[1]
                             + ctx.saved_tensors[0] * b_t, save="backward"),
     "jvp_reads_saved_for_backward"),
    ("mul_jvp", mul_with_jvp(None), "no_jvp"),
    ("mul_jvp", mul_with_jvp(lambda ctx, a_t, b_t: a_t * b_t), "multiplied_tangents"),
]


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("MINIGRAD_WORKSPACE", str(tmp_path))
    monkeypatch.setattr(settings, "lang", None)


def test_every_exercise_rejects_at_least_three_distinct_mistakes():
    import test_exercise_review_advanced       # the wrong answers of the later exercises
    keys = collections.defaultdict(set)
    for exercise_id, _, key in WRONG + test_exercise_review_advanced.WRONG:
        keys[exercise_id].add(key)
    assert set(keys) == set(EXERCISES)
    assert {i: len(k) for i, k in keys.items() if len(k) < 3} == {}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("exercise_id, answer, key", WRONG,
                         ids=[f"{i}-{k}-{n}" for n, (i, _, k) in enumerate(WRONG)])
def test_a_wrong_answer_gets_the_matching_hint(exercise_id, answer, key, lang):
    result = check(exercise_id, answer, lang=lang)
    assert not result.passed and result.status == "failed"
    assert result.hint == key, result
    assert result.message == _messages.text(key, lang, **result.params)
    other = "zh" if lang == "en" else "en"
    assert result.message != _messages.text(key, other, **result.params)
    assert repr(result).startswith(f"✗ {exercise_id}: ")


# ---------------------------------------------------------------- what the hints say

def test_inputs_are_numbered_from_zero_as_pytorch_numbers_them():
    cuts_b = fn(lambda ctx, a, b: a + b,
                lambda ctx, g: (g, g[..., :1]))          # b: (2, 1) for (2, 3), no broadcast
    result = check("add_broadcast", cuts_b, lang="en")
    assert (result.hint, result.params["input"]) == ("wrong_grad_shape", 1)
    assert "The gradient for input 1 has shape [2, 1]" in result.message
    assert "输入 1 的梯度" in check("add_broadcast", cuts_b, lang="zh").message

    def flags_off_by_one(ctx, g):          # needs_input_grad[i + 1] guards gradient i
        x, w = saved(ctx)
        flags = ctx.needs_input_grad
        return (g @ w if flags[1] else None, g.T @ x if flags[2] else None,
                g.sum(0) if flags[0] else None)
    result = check("linear", fn(linear_forward, flags_off_by_one), lang="en")
    assert result.hint == "needs_input_grad_mixed_up"
    flag = result.params["input"]
    assert f"ctx.needs_input_grad[{flag}] is input {flag}'s flag" in result.message


def test_an_exception_shows_the_students_own_line():
    def backward(ctx, grad_output):
        (y,) = saved(ctx)
        return grad_output * y.exponential_of_it()
    for lang in ("en", "zh"):
        result = check("exp", fn(exp_forward, backward), lang=lang)
        assert result.hint == "raised"
        assert result.params["line"] == "return grad_output * y.exponential_of_it()"
        assert result.params["function"] == "backward"
        assert "`return grad_output * y.exponential_of_it()`" in result.message
        assert result.message == _messages.text("raised", lang, **result.params)


def test_a_wrong_derivative_quotes_every_number_needed_to_redo_it_by_hand():
    """The input and grad_output at the element that goes wrong: from them alone the
    student gets both the right gradient and what their backward gave."""
    wrong = fn(sigmoid_forward, lambda ctx, g: g * saved(ctx)[0])          # σ, not σ(1 − σ)
    result = check("sigmoid", wrong, lang="en")
    assert result.hint == "wrong_grad" and result.params["input"] == 0
    (x,) = (float(v) for v in result.params["inputs"].strip("()").split(", "))
    g, got, expected = (float(result.params[name]) for name in ("grad_output", "got", "expected"))
    sigmoid = 1 / (1 + np.exp(-x))
    assert expected == pytest.approx(g * sigmoid * (1 - sigmoid), rel=2e-3)
    assert got == pytest.approx(g * sigmoid, rel=2e-3)
    for name in ("inputs", "grad_output", "got", "expected"):
        assert result.params[name] in result.message
    assert f"{result.params['index']}" in check("sigmoid", wrong, lang="zh").message


def test_a_wrong_gradient_of_two_inputs_quotes_both_and_the_constant():
    """mul_constant: forward(ctx, x, c); a wrong backward is redone from (x, c) and g."""
    def forward(ctx, x, c):
        ctx.c = c
        return x * c
    result = check("mul_constant", fn(forward, lambda ctx, g: (g * ctx.c + 1, None)), lang="en")
    assert result.hint == "wrong_grad"
    x, c = (float(v) for v in result.params["inputs"].strip("()").split(", "))
    g = float(result.params["grad_output"])
    assert float(result.params["expected"]) == pytest.approx(g * c, rel=2e-3)
    assert float(result.params["got"]) == pytest.approx(g * c + 1, rel=2e-3)


def test_an_exp_that_saves_its_input_passes_with_a_note():
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.exp()
    answer = fn(forward, lambda ctx, g: g * saved(ctx)[0].exp())
    for lang in ("en", "zh"):
        result = check("exp", answer, lang=lang)
        assert result.passed and result.notes == ("exp_saved_input",)
        assert result.message == _messages.text("passed", lang) + "\n\n" + \
            _messages.text("exp_saved_input", lang)
    assert check("exp", fn(exp_forward, lambda ctx, g: g * saved(ctx)[0])).notes == ()


def test_a_packed_tensor_left_on_the_gpu_is_named(fake_cuda):
    """On a machine with a GPU (here the tests' stand-in for one), the check also packs a
    tensor that lives on it: storing it where it is keeps the device memory."""
    assert torch.cuda.is_available()
    keep_it_there = (lambda t: (t.device, t), lambda p: p[1].to(p[0]))
    result = check("offload_to_cpu", keep_it_there, lang="zh")
    assert result.hint == "still_on_device" and result.params == {"device": "cuda:0"}
    assert "cuda:0" in result.message and "主机内存" in result.message
    reference = (lambda t: (t.device, t.cpu()), lambda p: p[1].to(p[0]))
    assert check("offload_to_cpu", reference).passed


def forward_saving_nothing(ctx, x):
    return x.exp()


def forward_saving_two(ctx, x):
    y = x.exp()
    ctx.save_for_backward(x, y)
    return y


def backward_unpacking_one(ctx, grad_output):
    (y,) = ctx.saved_tensors
    return grad_output * y


def backward_unpacking_two(ctx, grad_output):
    x, y = ctx.saved_tensors
    return grad_output * y


def backward_indexing(ctx, grad_output):
    y = ctx.saved_tensors[0]
    return grad_output * y


@pytest.mark.parametrize("forward, backward, key", [
    (forward_saving_nothing, backward_unpacking_one, "saved_nothing"),
    (forward_saving_nothing, backward_indexing, "saved_index"),
    (exp_forward, backward_unpacking_two, "saved_fewer"),
    (forward_saving_two, backward_unpacking_one, "saved_more"),
    (exp_forward, backward_unpacking_one, None),
])
def test_a_forgotten_save_for_backward_is_named_in_forward_not_in_backward(forward, backward,
                                                                           key):
    """backward fails to unpack ctx.saved_tensors (a ValueError, or an IndexError), but the
    mistake is forward's: the hint says so instead of "fix that line" in backward."""
    for lang, words in (("en", "forward"), ("zh", "forward")):
        result = check("exp", fn(forward, backward), lang=lang)
        if key is None:                                  # saved what backward unpacks
            assert result.passed
            continue
        assert result.hint == key, result
        assert "ctx.save_for_backward" in result.message and words in result.message
        assert result.params["line"] in result.message and "saved_tensors" in result.params["line"]


def test_a_wrong_forward_quotes_the_input_it_got_wrong():
    wrong = fn(saving_output(lambda x: 1 / (1 + x.exp())), lambda ctx, g: g)     # exp(x), not exp(-x)
    for lang in ("en", "zh"):
        result = check("sigmoid", wrong, lang=lang)
        assert result.hint == "wrong_forward", result
        (x,) = (float(v) for v in result.params["inputs"].strip("()").split(", "))
        assert float(result.params["expected"]) == pytest.approx(1 / (1 + np.exp(-x)), rel=2e-3)
        assert float(result.params["got"]) == pytest.approx(1 / (1 + np.exp(x)), rel=2e-3)
        assert result.params["inputs"] in result.message
