"""Answers to the exercises on today's Function form, memory, debugging, double backward and
a Function for both modes (polar ... normalize_both_modes), in the style of
test_exercise_review.py: right ones written as PyTorch 2.13's docs and tutorials would write
them, and other forms PyTorch accepts, which must pass; wrong ones, each with the hint that
names its mistake.  Every answer is checked in both
languages."""
import collections
import warnings

import numpy as np
import pytest

import minigrad as torch
from minigrad import settings
from minigrad.autograd import Function
from minigrad.exercises import _messages, check, judge_report, trial_report

WRONG, RIGHT = [], []


def wrong(exercise_id, key):
    """Register the decorated answer as wrong, diagnosed as `key`."""
    def register(answer):
        WRONG.append((exercise_id, answer, key))
        return answer
    return register


def right(exercise_id):
    def register(answer):
        RIGHT.append((exercise_id, answer))
        return answer
    return register


# ---------------------------------------------------------------- polar

class _Polar(Function):
    """Right in every part; the wrong answers below change one."""
    @staticmethod
    def forward(r, theta):
        return r * theta.cos(), r * theta.sin()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)
        ctx.set_materialize_grads(False)

    @staticmethod
    def backward(ctx, grad_x, grad_y):
        r, theta = ctx.saved_tensors
        grad_r = grad_theta = None
        if ctx.needs_input_grad[0]:
            grad_r = sum(g * f for g, f in ((grad_x, theta.cos()), (grad_y, theta.sin()))
                         if g is not None)
        if ctx.needs_input_grad[1]:
            grad_theta = sum(g * f for g, f in ((grad_x, -r * theta.sin()),
                                                (grad_y, r * theta.cos())) if g is not None)
        return grad_r, grad_theta


@right("polar")
class PolarFromItsOutputs(Function):
    """setup_context keeps the outputs too: dθ of (x, y) is (-y, x), and cos θ = x / r."""
    @staticmethod
    def forward(r, theta):
        return r * torch.cos(theta), r * torch.sin(theta)

    @staticmethod
    def setup_context(ctx, inputs, output):
        r, _ = inputs
        x, y = output
        ctx.save_for_backward(r, x, y)
        ctx.set_materialize_grads(False)

    @staticmethod
    def backward(ctx, grad_x, grad_y):
        r, x, y = ctx.saved_tensors
        grad_r = grad_theta = None
        if grad_x is None:
            grad_x = torch.zeros_like(x)
        if grad_y is None:
            grad_y = torch.zeros_like(y)
        if ctx.needs_input_grad[0]:
            grad_r = (grad_x * x + grad_y * y) / r
        if ctx.needs_input_grad[1]:
            grad_theta = grad_y * x - grad_x * y
        return grad_r, grad_theta


@right("polar")
class PolarTensorsOnCtx(_Polar):
    """Keeps theta as a ctx attribute, which PyTorch tolerates (not enforced, its docs say)."""
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
        ctx.theta = inputs[1]
        ctx.set_materialize_grads(False)

    @staticmethod
    def backward(ctx, grad_x, grad_y):
        (r,) = ctx.saved_tensors
        theta = ctx.theta
        needs_r, needs_theta = ctx.needs_input_grad
        grad_r = grad_theta = None
        if grad_x is not None:
            grad_r = grad_x * theta.cos() if needs_r else None
            grad_theta = -grad_x * r * theta.sin() if needs_theta else None
        if grad_y is not None:
            if needs_r:
                part = grad_y * theta.sin()
                grad_r = part if grad_r is None else grad_r + part
            if needs_theta:
                part = grad_y * r * theta.cos()
                grad_theta = part if grad_theta is None else grad_theta + part
        return grad_r, grad_theta


@wrong("polar", "use_setup_context")
class PolarOldForm(Function):
    @staticmethod
    def forward(ctx, r, theta):
        ctx.save_for_backward(r, theta)
        ctx.set_materialize_grads(False)
        return r * theta.cos(), r * theta.sin()

    backward = _Polar.backward


@wrong("polar", "forward_takes_no_ctx")
class PolarCtxInBoth(_Polar):
    @staticmethod
    def forward(ctx, r, theta):
        return r * theta.cos(), r * theta.sin()


@wrong("polar", "setup_context_args")
class PolarSetupContextUnpacked(_Polar):
    @staticmethod
    def setup_context(ctx, r, theta, output):
        ctx.save_for_backward(r, theta)
        ctx.set_materialize_grads(False)


@wrong("polar", "materialize_still_on")
class PolarMaterializes(_Polar):
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)


@wrong("polar", "none_not_handled")
class PolarAssumesBoth(_Polar):
    @staticmethod
    def backward(ctx, grad_x, grad_y):
        r, theta = ctx.saved_tensors
        return (grad_x * theta.cos() + grad_y * theta.sin(),
                -grad_x * r * theta.sin() + grad_y * r * theta.cos())


@wrong("polar", "dropped_output_term")
class PolarFirstGradientOnly(_Polar):
    """Takes whichever gradient came, as if only one could."""
    @staticmethod
    def backward(ctx, grad_x, grad_y):
        r, theta = ctx.saved_tensors
        if grad_x is not None:
            return grad_x * theta.cos(), -grad_x * r * theta.sin()
        return grad_y * theta.sin(), grad_y * r * theta.cos()


@wrong("polar", "ignored_needs_input_grad")
class PolarBothAlways(_Polar):
    @staticmethod
    def backward(ctx, grad_x, grad_y):
        r, theta = ctx.saved_tensors
        grad_r, grad_theta = torch.zeros_like(r), torch.zeros_like(theta)
        if grad_x is not None:
            grad_r, grad_theta = grad_r + grad_x * theta.cos(), grad_theta - grad_x * r * theta.sin()
        if grad_y is not None:
            grad_r, grad_theta = grad_r + grad_y * theta.sin(), grad_theta + grad_y * r * theta.cos()
        return grad_r, grad_theta


@wrong("polar", "zeros_where_none")
class PolarZerosForTheUnwanted(_Polar):
    @staticmethod
    def backward(ctx, grad_x, grad_y):
        r, _ = ctx.saved_tensors
        grads = _Polar.backward(ctx, grad_x, grad_y)
        return tuple(torch.zeros_like(r) if g is None else g for g in grads)


@wrong("polar", "return_two_outputs")
class PolarStacked(_Polar):
    """One tensor of coordinates, stacked, where the exercise asks for the pair (x, y)."""
    @staticmethod
    def forward(r, theta):
        return torch.stack([r * theta.cos(), r * theta.sin()])


@wrong("polar", "wrong_sign")
class PolarSinSign(_Polar):
    """d/dθ (r cos θ) taken as +r sin θ."""
    @staticmethod
    def backward(ctx, grad_x, grad_y):
        r, theta = ctx.saved_tensors
        grad_r, grad_theta = _Polar.backward(ctx, grad_x, grad_y)
        if grad_x is not None and grad_theta is not None:
            grad_theta = grad_theta + 2 * grad_x * r * theta.sin()
        return grad_r, grad_theta


# ---------------------------------------------------------------- saved_bytes

def _saved_tensors(output):
    """(node, name, tensor) for every tensor a node of the graph saved, each node once."""
    found, seen, stack = [], set(), [output.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        for name in dir(node):
            if name.startswith("_saved_") and isinstance(getattr(node, name), torch.Tensor):
                found.append((node, name, getattr(node, name)))
        stack.extend(n for n, _ in node.next_functions)
    return found


@right("saved_bytes")
def saved_bytes_recursive(output):
    """Depth first by recursion, memory told apart by data_ptr, sizes from nbytes."""
    seen, memory = set(), {}

    def visit(node):
        if node is None or node in seen:
            return
        seen.add(node)
        for name in dir(node):
            value = getattr(node, name) if name.startswith("_saved") else None
            if isinstance(value, torch.Tensor):
                memory[value.data_ptr()] = value.nbytes
        for next_node, _ in node.next_functions:
            visit(next_node)

    visit(output.grad_fn)
    return sum(memory.values())


@right("saved_bytes")
def saved_bytes_breadth_first(output):
    import collections as _collections
    queue, seen, pointers, total = _collections.deque([output.grad_fn]), {output.grad_fn}, set(), 0
    while queue:
        node = queue.popleft()
        for attribute in (a for a in dir(node) if a.startswith("_saved_")):
            tensor = getattr(node, attribute)
            if torch.is_tensor(tensor) and tensor.data_ptr() not in pointers:
                pointers.add(tensor.data_ptr())
                total += tensor.element_size() * tensor.numel()
        for next_node, _ in node.next_functions:
            if next_node is not None and next_node not in seen:
                seen.add(next_node)
                queue.append(next_node)
    return total


@wrong("saved_bytes", "counted_twice")
def saved_bytes_each_save(output):
    return sum(t.numel() * t.element_size() for _, _, t in _saved_tensors(output))


@wrong("saved_bytes", "compared_objects")
def saved_bytes_by_identity(output):
    distinct = {id(t): t for _, _, t in _saved_tensors(output)}
    return sum(t.numel() * t.element_size() for t in distinct.values())


@wrong("saved_bytes", "counted_elements")
def saved_bytes_elements(output):
    return sum({t.data_ptr(): t.numel() for _, _, t in _saved_tensors(output)}.values())


@wrong("saved_bytes", "found_nothing")
def saved_bytes_root_only(output):
    node = output.grad_fn
    tensors = [getattr(node, a) for a in dir(node) if a.startswith("_saved_")]
    return sum(t.nbytes for t in tensors if isinstance(t, torch.Tensor))


@wrong("saved_bytes", "not_a_byte_count")
def saved_bytes_in_mib(output):
    return saved_bytes_recursive(output) / 2**20


@wrong("saved_bytes", "wrong_byte_count")
def saved_bytes_of_the_leaves_too(output):
    """Adds the leaves (AccumulateGrad's variable), which are not saved tensors."""
    memory = {t.data_ptr(): t.nbytes for _, _, t in _saved_tensors(output)}
    for node in {n for n, _, _ in _saved_tensors(output)}:
        for next_node, _ in node.next_functions:
            if hasattr(next_node, "variable"):
                memory[next_node.variable.data_ptr()] = next_node.variable.nbytes
    return sum(memory.values())


# ---------------------------------------------------------------- checkpoint

class _Checkpoint(Function):
    @staticmethod
    def forward(ctx, fn, x):
        ctx.fn = fn
        ctx.save_for_backward(x)
        return fn(x)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        with torch.enable_grad():
            x = x.detach().requires_grad_()
            output = ctx.fn(x)
        return None, torch.autograd.grad(output, x, grad_output)[0]


@right("checkpoint")
class CheckpointAsPyTorchsReentrantOne(Function):
    """As torch.utils.checkpoint's CheckpointFunction: detached inputs, autograd.backward,
    then their .grad."""
    @staticmethod
    def forward(ctx, run_function, *args):
        ctx.run_function = run_function
        ctx.save_for_backward(*args)
        with torch.no_grad():
            outputs = run_function(*args)
        return outputs

    @staticmethod
    def backward(ctx, *grad_outputs):
        inputs = ctx.saved_tensors
        detached = [inp.detach() for inp in inputs]
        for d, inp in zip(detached, inputs):
            d.requires_grad = inp.requires_grad
        with torch.enable_grad():
            outputs = ctx.run_function(*detached)
        torch.autograd.backward(outputs, grad_outputs)
        return (None,) + tuple(d.grad for d in detached)


@right("checkpoint")
class CheckpointSetupContext(Function):
    @staticmethod
    def forward(fn, x):
        return fn(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.fn, x = inputs
        ctx.save_for_backward(x)

    backward = _Checkpoint.backward


@right("checkpoint")
class CheckpointInputOnCtx(_Checkpoint):
    """x as a ctx attribute: PyTorch tolerates it, and it is still the only tensor kept."""
    @staticmethod
    def forward(ctx, fn, x):
        ctx.fn, ctx.x = fn, x
        return fn(x)

    @staticmethod
    def backward(ctx, grad_output):
        with torch.enable_grad():
            x = ctx.x.detach().requires_grad_(True)
            (grad,) = torch.autograd.grad(ctx.fn(x), (x,), (grad_output,))
        return None, grad


@wrong("checkpoint", "recompute_records_nothing")
class CheckpointWithoutEnableGrad(_Checkpoint):
    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        x = x.detach().requires_grad_()
        output = ctx.fn(x)
        return None, torch.autograd.grad(output, x, grad_output)[0]


@wrong("checkpoint", "saves_the_output")
class CheckpointSavesOutput(_Checkpoint):
    @staticmethod
    def forward(ctx, fn, x):
        ctx.fn = fn
        output = fn(x)
        ctx.save_for_backward(x, output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        x, _ = ctx.saved_tensors
        with torch.enable_grad():
            x = x.detach().requires_grad_()
            output = ctx.fn(x)
        return None, torch.autograd.grad(output, x, grad_output)[0]


@wrong("checkpoint", "keeps_intermediates")
class CheckpointRecordsInForward(Function):
    """Records fn's graph in forward, to reuse it in backward: the memory is kept."""
    @staticmethod
    def forward(ctx, fn, x):
        with torch.enable_grad():
            ctx.x = x.detach().requires_grad_()
            ctx.output = fn(ctx.x)
        return ctx.output.detach()

    @staticmethod
    def backward(ctx, grad_output):
        return None, torch.autograd.grad(ctx.output, ctx.x, grad_output)[0]


@wrong("checkpoint", "backward_through_x")
class CheckpointBackwardOnTheSavedX(_Checkpoint):
    """Recomputes on the saved x itself and calls .backward(): the gradient goes on into
    x's own history, and the gradient returned adds it again."""
    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        with torch.enable_grad():
            output = ctx.fn(x)
            (grad,) = torch.autograd.grad(output, x, grad_output, retain_graph=True)
        output.backward(grad_output)
        return None, grad


@wrong("checkpoint", "forgot_grad_output")
class CheckpointSumsTheOutput(_Checkpoint):
    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        with torch.enable_grad():
            x = x.detach().requires_grad_()
            output = ctx.fn(x).sum()
        return None, torch.autograd.grad(output, x)[0]


@wrong("checkpoint", "wrong_num_grads")
class CheckpointOneGradient(_Checkpoint):
    @staticmethod
    def backward(ctx, grad_output):
        return _Checkpoint.backward(ctx, grad_output)[1]


@wrong("checkpoint", "checkpoint_values")
class CheckpointAppliesFnTwice(_Checkpoint):
    @staticmethod
    def forward(ctx, fn, x):
        ctx.fn = fn
        ctx.save_for_backward(x)
        return fn(fn(x))


@wrong("checkpoint", "no_recompute")
class CheckpointPassesTheGradientOn(_Checkpoint):
    """Keeps x only, as asked, but never runs fn again: the gradient is fn's at nothing."""
    @staticmethod
    def backward(ctx, grad_output):
        return None, grad_output


@wrong("checkpoint", "saved_non_tensor")
class CheckpointSavesFn(_Checkpoint):
    @staticmethod
    def forward(ctx, fn, x):
        ctx.save_for_backward(fn, x)
        return fn(x)


# ---------------------------------------------------------------- logsumexp

class _LogSumExp(Function):
    @staticmethod
    def forward(ctx, x):
        m = x.max(dim=-1, keepdim=True).values
        result = (x - m).exp().sum(dim=-1).log() + m.squeeze(-1)
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        x, result = ctx.saved_tensors
        return grad_output[..., None] * (x - result[..., None]).exp()


@right("logsumexp")
class LogSumExpSoftmax(Function):
    """The built-ins of PyTorch: torch.logsumexp forward, torch.softmax backward."""
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.logsumexp(x, dim=-1)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output.unsqueeze(-1) * torch.softmax(x, dim=-1)


@right("logsumexp")
class LogSumExpSetupContextAmax(Function):
    @staticmethod
    def forward(x):
        largest = x.amax(dim=-1, keepdim=True).detach()
        return largest.squeeze(-1) + torch.log(torch.exp(x - largest).sum(-1))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], output)

    @staticmethod
    def backward(ctx, grad_output):
        x, output = ctx.saved_tensors
        weights = torch.exp(x - output.unsqueeze(-1))
        return weights * grad_output.unsqueeze(-1)


@wrong("logsumexp", "overflow")
class LogSumExpAsItReads(_LogSumExp):
    @staticmethod
    def forward(ctx, x):
        result = x.exp().sum(dim=-1).log()
        ctx.save_for_backward(x, result)
        return result


@wrong("logsumexp", "underflow")
class LogSumExpGuardsOverflowOnly(_LogSumExp):
    """Shifts only by a positive maximum, for fear of overflow: rows far below 0 underflow."""
    @staticmethod
    def forward(ctx, x):
        m = x.max(dim=-1, keepdim=True).values.clamp(min=0)
        result = (x - m).exp().sum(dim=-1).log() + m.squeeze(-1)
        ctx.save_for_backward(x, result)
        return result


@wrong("logsumexp", "max_not_added_back")
class LogSumExpShiftedOnly(_LogSumExp):
    @staticmethod
    def forward(ctx, x):
        m = x.max(dim=-1, keepdim=True).values
        result = (x - m).exp().sum(dim=-1).log()
        ctx.save_for_backward(x, result + m.squeeze(-1))
        return result


@wrong("logsumexp", "backward_overflows")
class LogSumExpPlainSoftmax(_LogSumExp):
    @staticmethod
    def backward(ctx, grad_output):
        x, _ = ctx.saved_tensors
        e = x.exp()
        return grad_output[..., None] * e / e.sum(dim=-1, keepdim=True)


@wrong("logsumexp", "grad_output_per_row")
class LogSumExpGradOutputUnshaped(_LogSumExp):
    @staticmethod
    def backward(ctx, grad_output):
        x, result = ctx.saved_tensors
        return grad_output * (x - result[..., None]).exp()


@wrong("logsumexp", "forgot_grad_output")
class LogSumExpSoftmaxOnly(_LogSumExp):
    @staticmethod
    def backward(ctx, grad_output):
        x, result = ctx.saved_tensors
        return (x - result[..., None]).exp()


# ---------------------------------------------------------------- pairwise_distances

@right("pairwise_distances")
def distances_by_norm(points):
    """The built-in norm, whose backward gives 0 at 0."""
    return (points.unsqueeze(1) - points.unsqueeze(0)).norm(dim=-1)


@right("pairwise_distances")
def distances_by_mask(points):
    """A safe input where the distance is 0, then a mask; |a - b|² expanded."""
    squares = (points * points).sum(dim=1)
    squared = (squares[:, None] + squares[None, :] - 2 * points @ points.T).clamp(min=0)
    coincide = squared <= 0
    return torch.where(coincide, torch.ones_like(squared), squared).sqrt() * (~coincide)


@wrong("pairwise_distances", "nan_gradient")
def distances_as_written(points):
    return ((points[:, None] - points[None]) ** 2).sum(-1).sqrt()


@wrong("pairwise_distances", "nan_gradient")
def distances_where_after_sqrt(points):
    squared = ((points[:, None] - points[None]) ** 2).sum(-1)
    return torch.where(squared > 0, squared.sqrt(), torch.zeros_like(squared))


@wrong("pairwise_distances", "distances_changed")
def distances_with_epsilon(points):
    return (((points[:, None] - points[None]) ** 2).sum(-1) + 1e-12).sqrt()


@wrong("pairwise_distances", "wrong_forward_values")
def distances_squared(points):
    return ((points[:, None] - points[None]) ** 2).sum(-1)


@wrong("pairwise_distances", "wrong_shape")
def distances_per_coordinate(points):
    return (points[:, None] - points[None]).abs()


# ---------------------------------------------------------------- fix_inplace

@right("fix_inplace")
def features_with_a_mask(x, w):
    h = x @ w + 1
    a = h.sigmoid() * torch.tensor([0.0, 1.0, 1.0], dtype=h.dtype)
    return (a * a).clamp(max=0.5).sum(dim=1)


@right("fix_inplace")
def features_with_cat(x, w):
    h = x @ w
    h += 1
    a = h.sigmoid()
    a = torch.cat([torch.zeros_like(a[:, :1]), a[:, 1:]], dim=1)
    b = a * a
    b.clamp_(max=0.5)
    return b.sum(dim=1)


@wrong("fix_inplace", "still_modified_in_place")
def features_clone_too_early(x, w):
    """Clones h, which no node saved, and leaves the write into a."""
    h = (x @ w).clone()
    h += 1
    a = h.sigmoid()
    a[:, 0] = 0.0
    b = a * a
    b.clamp_(max=0.5)
    return b.sum(dim=1)


@wrong("fix_inplace", "cut_from_graph")
def features_detached(x, w):
    h = x @ w
    h += 1
    a = h.sigmoid().detach()
    a[:, 0] = 0.0
    b = a * a
    b.clamp_(max=0.5)
    return b.sum(dim=1)


@wrong("fix_inplace", "features_changed")
def features_without_the_zeros(x, w):
    h = x @ w
    h += 1
    a = h.sigmoid()
    b = a * a
    b.clamp_(max=0.5)
    return b.sum(dim=1)


# ---------------------------------------------------------------- hvp

@right("hvp")
def hvp_with_grad_outputs(f, x, v):
    """vᵀH through grad_outputs: the same vector, H being symmetric."""
    x = x.detach().requires_grad_(True)
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    return torch.autograd.grad(g, x, grad_outputs=v)[0]


@right("hvp")
def hvp_by_pytorchs_function(f, x, v):
    return torch.autograd.functional.hvp(f, x, v)[1]


@right("hvp")
def hvp_with_backward(f, x, v):
    leaf = x.detach().clone().requires_grad_()
    (g,) = torch.autograd.grad(f(leaf), leaf, create_graph=True)
    torch.dot(g, v).backward()
    return leaf.grad


@wrong("hvp", "forgot_create_graph")
def hvp_without_create_graph(f, x, v):
    x = x.detach().requires_grad_()
    (g,) = torch.autograd.grad(f(x), x)
    return torch.autograd.grad((g * v).sum(), x)[0]


@wrong("hvp", "returned_gradient")
def hvp_gradient_only(f, x, v):
    x = x.detach().requires_grad_()
    return torch.autograd.grad(f(x), x)[0]


@wrong("hvp", "multiplied_the_gradient")
def hvp_gradient_times_v(f, x, v):
    x = x.detach().requires_grad_()
    (g,) = torch.autograd.grad(f(x), x)
    return g * v


@wrong("hvp", "returned_hessian")
def hvp_the_hessian(f, x, v):
    return torch.autograd.functional.hessian(f, x)


@wrong("hvp", "forgot_vector")
def hvp_without_v(f, x, v):
    x = x.detach().requires_grad_()
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    return torch.autograd.grad(g.sum(), x)[0]


@wrong("hvp", "make_a_leaf")
def hvp_on_x_itself(f, x, v):
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    return torch.autograd.grad((g * v).sum(), x)[0]


@wrong("hvp", "built_the_hessian")
def hvp_hessian_times_v(f, x, v):
    return torch.autograd.functional.hessian(f, x) @ v


@wrong("hvp", "wrong_hvp")
def hvp_of_the_squared_gradient(f, x, v):
    x = x.detach().requires_grad_()
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    return torch.autograd.grad((g * g * v).sum(), x)[0]


@wrong("hvp", "grad_returns_tuple")
def hvp_tuple(f, x, v):
    x = x.detach().requires_grad_()
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    return torch.autograd.grad((g * v).sum(), x)


# ---------------------------------------------------------------- softplus_double_backward

@right("softplus_double_backward")
class SoftplusSigmoidOfInput(Function):
    """Saves x as well, and writes the slope as sigmoid(x); log1p for the value."""
    @staticmethod
    def forward(ctx, x):
        e = torch.exp(x)
        ctx.save_for_backward(x, e)
        return torch.log1p(e), e

    @staticmethod
    def backward(ctx, grad_y, grad_e):
        x, e = ctx.saved_tensors
        return grad_y * torch.sigmoid(x) + grad_e * e


@right("softplus_double_backward")
class SoftplusSetupContext(Function):
    @staticmethod
    def forward(x):
        e = x.exp()
        return (1 + e).log(), e

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output[1])

    @staticmethod
    def backward(ctx, grad_y, grad_e):
        (e,) = ctx.saved_tensors
        grad_x = grad_y * e / (1 + e)
        grad_x += grad_e * e
        return grad_x


@wrong("softplus_double_backward", "intermediate_not_returned")
class SoftplusSavesTheSlope(Function):
    """Saves e / (1 + e), computed in forward, which is no output."""
    @staticmethod
    def forward(ctx, x):
        e = x.exp()
        ctx.save_for_backward(e / (1 + e), e)
        return (1 + e).log(), e

    @staticmethod
    def backward(ctx, grad_y, grad_e):
        slope, e = ctx.saved_tensors
        return grad_y * slope + grad_e * e


@wrong("softplus_double_backward", "forgot_intermediate_gradient")
class SoftplusIgnoresGradE(Function):
    @staticmethod
    def forward(ctx, x):
        e = x.exp()
        ctx.save_for_backward(e)
        return (1 + e).log(), e

    @staticmethod
    def backward(ctx, grad_y, grad_e):
        (e,) = ctx.saved_tensors
        return grad_y * e / (1 + e)


@wrong("softplus_double_backward", "wrong_sign")
class SoftplusSubtractsGradE(SoftplusIgnoresGradE):
    @staticmethod
    def backward(ctx, grad_y, grad_e):
        (e,) = ctx.saved_tensors
        return grad_y * e / (1 + e) - grad_e * e


@wrong("softplus_double_backward", "return_the_intermediate")
class SoftplusOneOutput(Function):
    @staticmethod
    def forward(ctx, x):
        e = x.exp()
        ctx.save_for_backward(e)
        return (1 + e).log()

    @staticmethod
    def backward(ctx, grad_y):
        (e,) = ctx.saved_tensors
        return grad_y * e / (1 + e)


# ---------------------------------------------------------------- sin_backward_function

class _SinBackward(Function):
    @staticmethod
    def forward(ctx, grad_output, x):
        ctx.save_for_backward(grad_output, x)
        return grad_output * torch.from_numpy(np.cos(x.numpy()))

    @staticmethod
    def backward(ctx, grad):
        grad_output, x = ctx.saved_tensors
        return grad * x.cos(), -grad * grad_output * x.sin()


def _sin_calling(inner):
    class Sin(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return torch.from_numpy(np.sin(x.numpy()))

        @staticmethod
        def backward(ctx, grad_output):
            (x,) = ctx.saved_tensors
            return inner.apply(grad_output, x)
    Sin.__name__ = f"SinCalling{inner.__name__}"
    return Sin


class SinBackwardOnce(_SinBackward):
    """Its backward in numpy too, marked: a third derivative raises."""
    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, grad):
        grad_output, x = ctx.saved_tensors
        cos, sin = (torch.from_numpy(f(x.numpy())) for f in (np.cos, np.sin))
        return grad * cos, -grad * grad_output * sin


class SinBackwardSetupContext(Function):
    @staticmethod
    def forward(grad_output, x):
        return grad_output * torch.cos(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    backward = _SinBackward.backward


class SinBackwardSwapped(_SinBackward):
    @staticmethod
    def backward(ctx, grad):
        grad_output, x = ctx.saved_tensors
        return -grad * grad_output * x.sin(), grad * x.cos()


class SinBackwardXOnly(_SinBackward):
    @staticmethod
    def backward(ctx, grad):
        grad_output, x = ctx.saved_tensors
        return None, -grad * grad_output * x.sin()


class SinBackwardPartlyNumpy(_SinBackward):
    """sin x as tan x · cos x, the tan from numpy: right values, a third derivative that
    records only the cos."""
    @staticmethod
    def backward(ctx, grad):
        grad_output, x = ctx.saved_tensors
        tan = torch.from_numpy(np.tan(x.detach().numpy()))
        return grad * x.cos(), -grad * grad_output * tan * x.cos()


right("sin_backward_function")(_sin_calling(SinBackwardOnce))
right("sin_backward_function")(_sin_calling(SinBackwardSetupContext))
wrong("sin_backward_function", "inner_grads_swapped")(_sin_calling(SinBackwardSwapped))
wrong("sin_backward_function", "grad_output_derivative")(_sin_calling(SinBackwardXOnly))
wrong("sin_backward_function", "third_order_silently_wrong")(_sin_calling(SinBackwardPartlyNumpy))


@wrong("sin_backward_function", "backward_needs_its_function")
class SinNumpyBackward(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.from_numpy(np.sin(x.numpy()))

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * torch.from_numpy(np.cos(x.numpy()))


# ---------------------------------------------------------------- normalize_both_modes

class _Normalize(Function):
    """Right in every part; the wrong answers below change one."""
    @staticmethod
    def forward(x):
        return x / x.sum(-1, keepdim=True)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], output)
        ctx.save_for_forward(inputs[0], output)

    @staticmethod
    def backward(ctx, grad_output):
        x, y = ctx.saved_tensors
        return (grad_output - (grad_output * y).sum(-1, keepdim=True)) / x.sum(-1, keepdim=True)

    @staticmethod
    def jvp(ctx, x_t):
        x, y = ctx.saved_tensors
        return (x_t - y * x_t.sum(-1, keepdim=True)) / x.sum(-1, keepdim=True)


@right("normalize_both_modes")
class NormalizeSavesTheSum(Function):
    """setup_context computes the sum from the input and saves it with the output."""
    @staticmethod
    def forward(x):
        return x / x.sum(dim=-1, keepdim=True)

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        total = x.sum(dim=-1, keepdim=True)
        ctx.save_for_backward(output, total)
        ctx.save_for_forward(output, total)

    @staticmethod
    def backward(ctx, grad_output):
        y, total = ctx.saved_tensors
        return (grad_output - (grad_output * y).sum(dim=-1, keepdim=True)) / total

    @staticmethod
    def jvp(ctx, x_t):
        y, total = ctx.saved_tensors
        return (x_t - y * x_t.sum(dim=-1, keepdim=True)) / total


@right("normalize_both_modes")
class NormalizeOlderForm(Function):
    """ctx in forward, both saves there: PyTorch accepts it."""
    @staticmethod
    def forward(ctx, x):
        y = x / x.sum(-1, keepdim=True)
        ctx.save_for_backward(x, y)
        ctx.save_for_forward(x, y)
        return y

    backward = _Normalize.backward
    jvp = _Normalize.jvp


@right("normalize_both_modes")
class NormalizeQuotientRule(Function):
    """The quotient rule as it comes: 1/s, minus x over s²."""
    @staticmethod
    def forward(x):
        return x / x.sum(-1, keepdim=True)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)
        ctx.save_for_forward(*inputs)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        s = x.sum(-1, keepdim=True)
        return grad_output / s - (grad_output * x).sum(-1, keepdim=True) / s ** 2

    @staticmethod
    def jvp(ctx, x_t):
        (x,) = ctx.saved_tensors
        s = x.sum(-1, keepdim=True)
        return x_t / s - x * x_t.sum(-1, keepdim=True) / s ** 2


@right("normalize_both_modes")
class NormalizeAttributesForJvp(_Normalize):
    """What jvp reads kept on ctx, as the tutorial's Exp keeps its result; tuples returned."""
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], output)
        ctx.y, ctx.total = output, inputs[0].sum(-1, keepdim=True)

    @staticmethod
    def backward(ctx, grad_output):
        return (_Normalize.backward(ctx, grad_output),)

    @staticmethod
    def jvp(ctx, x_t):
        return ((x_t - ctx.y * x_t.sum(-1, keepdim=True)) / ctx.total,)


@wrong("normalize_both_modes", "normalize_each_row")
class NormalizeWholeTensor(_Normalize):
    @staticmethod
    def forward(x):
        return x / x.sum()


@wrong("normalize_both_modes", "add_a_jvp")
class NormalizeWithoutJvp(Function):
    forward, setup_context, backward = (_Normalize.forward, _Normalize.setup_context,
                                        _Normalize.backward)


@wrong("normalize_both_modes", "add_a_backward")
class NormalizeWithoutBackward(Function):
    forward, setup_context, jvp = _Normalize.forward, _Normalize.setup_context, _Normalize.jvp


@wrong("normalize_both_modes", "jvp_needs_save_for_forward")
class NormalizeSavesForBackwardOnly(_Normalize):
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], output)


@wrong("normalize_both_modes", "backward_needs_save_for_backward")
class NormalizeSavesForForwardOnly(_Normalize):
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_forward(inputs[0], output)


@wrong("normalize_both_modes", "backward_is_jvp")
class NormalizeBackwardIsTheJvp(_Normalize):
    @staticmethod
    def backward(ctx, grad_output):
        x, y = ctx.saved_tensors
        return (grad_output - y * grad_output.sum(-1, keepdim=True)) / x.sum(-1, keepdim=True)


@wrong("normalize_both_modes", "jvp_is_backward")
class NormalizeJvpIsTheBackward(_Normalize):
    @staticmethod
    def jvp(ctx, x_t):
        x, y = ctx.saved_tensors
        return (x_t - (x_t * y).sum(-1, keepdim=True)) / x.sum(-1, keepdim=True)


@wrong("normalize_both_modes", "sum_held_constant")
class NormalizeSumConstantInBackward(_Normalize):
    @staticmethod
    def backward(ctx, grad_output):
        x, _ = ctx.saved_tensors
        return grad_output / x.sum(-1, keepdim=True)


@wrong("normalize_both_modes", "sum_held_constant")
class NormalizeSumConstantInJvp(_Normalize):
    @staticmethod
    def jvp(ctx, x_t):
        x, _ = ctx.saved_tensors
        return x_t / x.sum(-1, keepdim=True)


@wrong("normalize_both_modes", "forgot_division_by_sum")
class NormalizeWithoutTheDivision(_Normalize):
    @staticmethod
    def jvp(ctx, x_t):
        _, y = ctx.saved_tensors
        return x_t - y * x_t.sum(-1, keepdim=True)


@wrong("normalize_both_modes", "sums_across_rows")
class NormalizeSumsEveryRow(_Normalize):
    @staticmethod
    def backward(ctx, grad_output):
        x, y = ctx.saved_tensors
        return (grad_output - (grad_output * y).sum()) / x.sum(-1, keepdim=True)


@wrong("normalize_both_modes", "wrong_normalize_gradient")
class NormalizeBackwardSign(_Normalize):
    @staticmethod
    def backward(ctx, grad_output):
        x, y = ctx.saved_tensors
        return (grad_output + (grad_output * y).sum(-1, keepdim=True)) / x.sum(-1, keepdim=True)


@wrong("normalize_both_modes", "wrong_normalize_tangent")
class NormalizeJvpSquaresTheSum(_Normalize):
    @staticmethod
    def jvp(ctx, x_t):
        x, y = ctx.saved_tensors
        return (x_t - y * x_t.sum(-1, keepdim=True)) / x.sum(-1, keepdim=True) ** 2


# ---------------------------------------------------------------- the tests

@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("MINIGRAD_WORKSPACE", str(tmp_path))
    monkeypatch.setattr(settings, "lang", None)
    monkeypatch.delenv("MINIGRAD_LANG", raising=False)


def _label(answer):
    return getattr(answer, "__name__", type(answer).__name__)


EXERCISE_IDS = ("polar", "saved_bytes", "checkpoint", "logsumexp", "pairwise_distances",
                "fix_inplace", "hvp", "softplus_double_backward", "sin_backward_function",
                "normalize_both_modes")


def test_every_exercise_here_has_three_kinds_of_mistake_and_two_right_answers():
    wrong_keys = collections.defaultdict(set)
    for exercise_id, _, key in WRONG:
        wrong_keys[exercise_id].add(key)
    right_counts = collections.Counter(exercise_id for exercise_id, _ in RIGHT)
    assert set(wrong_keys) == set(right_counts) == set(EXERCISE_IDS)
    assert min(len(keys) for keys in wrong_keys.values()) >= 3
    assert min(right_counts.values()) >= 2


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("exercise_id, answer, key", WRONG,
                         ids=[f"{i}-{k}-{_label(a)}" for i, a, k in WRONG])
def test_a_wrong_answer_is_diagnosed(exercise_id, answer, key, lang):
    result = check(exercise_id, answer, lang=lang)
    assert not result.passed and result.status == "failed"
    assert result.hint == key, result
    assert result.message == _messages.text(key, lang, **result.params)
    other = "zh" if lang == "en" else "en"
    assert result.message != _messages.text(key, other, **result.params)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("exercise_id, answer", RIGHT,
                         ids=[f"{i}-{_label(a)}" for i, a in RIGHT])
def test_a_right_answer_passes_within_the_checks_time_limit(exercise_id, answer, lang):
    """check() stops an answer that runs past its time limit (a "timeout" hint), so passing is
    passing in time; how many seconds it took depends on the machine and its load."""
    result = check(exercise_id, answer, lang=lang)
    assert result.passed, result
    assert result.message == _messages.text("passed", lang)


def test_the_function_to_fix_is_the_lessons_own():
    """fix_inplace's check computes the values and finite differences of `features` as the
    lesson writes it: the same lines, in the same order."""
    import inspect
    import pathlib
    from minigrad.exercises import bug_hunts
    source = (pathlib.Path(__file__).resolve().parent.parent / "notebooks" / "sources"
              / "11-bug-hunts.py").read_text(encoding="utf-8")
    lesson = source[source.index("def features(x, w):"):].split("\n\n")[0].splitlines()
    checker = [line for line in inspect.getsource(bug_hunts.features).splitlines()
               if not line.strip().startswith('"""')]
    assert [line.strip() for line in lesson] == [line.strip() for line in checker]


# What the trials leave to the checks: right values computed in the wrong form (the old
# forward(ctx, ...), gradients materialized or computed where none is needed).
LEFT_TO_THE_CHECKS = {("polar", "use_setup_context"), ("polar", "materialize_still_on"),
                      ("polar", "ignored_needs_input_grad"), ("polar", "zeros_where_none")}


def _trial_verdict(exercise_id, answer, seed):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # some wrong answers warn, as PyTorch does
        report = trial_report(exercise_id, answer, seed, time_limit=5)
    return judge_report(exercise_id, report, seed)


@pytest.mark.parametrize("exercise_id, answer", RIGHT,
                         ids=[f"{i}-{_label(a)}" for i, a in RIGHT])
def test_a_right_answer_passes_its_trial_for_every_seed(exercise_id, answer):
    for seed in range(3):
        result = _trial_verdict(exercise_id, answer, seed)
        assert result.passed, (seed, result)


@pytest.mark.parametrize("exercise_id, answer, key", WRONG,
                         ids=[f"{i}-{k}-{_label(a)}" for i, a, k in WRONG])
def test_a_wrong_answer_fails_its_trial_too(exercise_id, answer, key):
    if (exercise_id, key) in LEFT_TO_THE_CHECKS:
        pytest.skip("right values in the wrong form: the check's to see")
    for seed in range(2):
        result = _trial_verdict(exercise_id, answer, seed)
        assert not result.passed and result.hint, (seed, result)
