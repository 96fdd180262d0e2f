"""A right answer to every exercise, for the tests: the package itself holds none.

These are the worked notebooks' answers (notebooks/<lang>/solutions/), written
once more here so that the tests can use them without running a notebook;
tests/test_exercises.py checks that every exercise has one, and
tests/test_nbgrader.py that the worked notebooks themselves score full marks.
"""
import heapq

from worked_solutions import SOLUTIONS

import minigrad as torch
from minigrad.autograd import Function


def graph_edges():
    return {("AddBackward0", "ExpBackward0"), ("AddBackward0", "DivBackward0"),
            ("ExpBackward0", "MulBackward0"), ("MulBackward0", "a"), ("MulBackward0", "b"),
            ("DivBackward0", "SinBackward0"), ("SinBackward0", "a")}


def count_dependencies(output):
    root = output.grad_fn
    counts, stack = {root: 0}, [root]
    while stack:
        node = stack.pop()
        for next_node, _ in node.next_functions:
            if next_node is None:
                continue
            if next_node not in counts:
                counts[next_node] = 0
                stack.append(next_node)
            counts[next_node] += 1
    return counts


def topo_order(output):
    counts = count_dependencies(output)
    counter = 0
    ready = [(-output.grad_fn._sequence_nr, counter, output.grad_fn)]
    order = []
    while ready:
        node = heapq.heappop(ready)[2]
        order.append(node)
        for next_node, _ in node.next_functions:
            if next_node is None:
                continue
            counts[next_node] -= 1
            if counts[next_node] == 0:
                counter += 1
                heapq.heappush(ready, (-next_node._sequence_nr, counter, next_node))
    return order


class Exp(Function):
    @staticmethod
    def forward(ctx, x):
        result = x.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result


class Sigmoid(Function):
    @staticmethod
    def forward(ctx, x):
        result = 1 / (1 + (-x).exp())
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result * (1 - result)


class ReLU(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * (x > 0).to(grad_output.dtype)


class MulConstant(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None


class AddBroadcast(Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.shapes = (a.shape, b.shape)
        return a + b

    @staticmethod
    def backward(ctx, grad_output):
        shape_a, shape_b = ctx.shapes
        return grad_output.sum_to_size(shape_a), grad_output.sum_to_size(shape_b)


class Func(Function):
    @staticmethod
    def forward(ctx, x, y, z):
        w = x * z
        out = x * y + y * z + w * y
        ctx.save_for_backward(x, y, w, out)
        ctx.z = z
        return out

    @staticmethod
    def backward(ctx, grad_out):
        x, y, w, out = ctx.saved_tensors
        z = ctx.z
        grad_x = grad_out * (y + y * z)
        grad_y = grad_out * (x + z + w)
        return grad_x, grad_y, None


class Tanh(Function):
    @staticmethod
    def forward(ctx, x):
        result = x.tanh()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * (1 - result * result)


class InplaceReLU(Function):
    @staticmethod
    def forward(ctx, x):
        x.clamp_(min=0)
        ctx.mark_dirty(x)
        ctx.save_for_backward(x)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * (x > 0).to(grad_output.dtype)


class MatMul(Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a @ b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        grad_a = grad_output @ b.T if ctx.needs_input_grad[0] else None
        grad_b = a.T @ grad_output if ctx.needs_input_grad[1] else None
        return grad_a, grad_b


class MaxWithIndex(Function):
    @staticmethod
    def forward(ctx, x):
        values, indices = x.max(dim=1)
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        ctx.columns = x.shape[1]
        return values, indices

    @staticmethod
    def backward(ctx, grad_values, grad_indices):
        (indices,) = ctx.saved_tensors
        one_hot = torch.arange(ctx.columns) == indices.reshape(-1, 1)
        return one_hot.to(grad_values.dtype) * grad_values.reshape(-1, 1)


def clip_grad_hook(grad):
    return grad.clamp(-1, 1)


def pack_float16(tensor):
    return tensor.to(torch.float16) if tensor.dtype is torch.float32 else tensor


def unpack_float16(packed):
    return packed.to(torch.float32) if packed.dtype is torch.float16 else packed


def separate_gradients(loss_a, loss_b, w):
    (grad_a,) = torch.autograd.grad(loss_a, w, retain_graph=True)
    (grad_b,) = torch.autograd.grad(loss_b, w)
    return grad_a, grad_b


def second_derivative(f, x):
    x = x.detach().requires_grad_()
    (first,) = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    (second,) = torch.autograd.grad(first.sum(), x)
    return second


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * 3 * x * x


def pack_to_cpu(tensor):
    return tensor.device, tensor.cpu()


def unpack_from_cpu(packed):
    device, tensor = packed
    return tensor.to(device)


class Linear(Function):
    @staticmethod
    def forward(ctx, x, weight, bias):
        ctx.save_for_backward(x, weight)
        return x @ weight.T + bias

    @staticmethod
    def backward(ctx, grad_output):
        x, weight = ctx.saved_tensors
        grad_x = grad_output @ weight if ctx.needs_input_grad[0] else None
        grad_weight = grad_output.T @ x if ctx.needs_input_grad[1] else None
        grad_bias = grad_output.sum(0) if ctx.needs_input_grad[2] else None
        return grad_x, grad_weight, grad_bias


class Mul(Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_forward(a, b)
        return a * b

    @staticmethod
    def jvp(ctx, a_t, b_t):
        a, b = ctx.saved_tensors
        return a_t * b + a * b_t


def jacobian(f, x):
    rows = []
    m = f(x).shape[0]
    for i in range(m):
        v = torch.zeros(m, dtype=x.dtype)
        v[i] = 1.0
        x.grad = None
        f(x).backward(gradient=v)
        rows.append(x.grad.clone())
    x.grad = None
    return torch.stack(rows)


def backpropagate(output, inputs):
    received = {output.grad_fn: torch.ones_like(output)}
    leaf_grads = {}
    with torch.no_grad():
        for node in topo_order(output):
            grad = received.pop(node, None)
            if grad is None:
                continue
            if hasattr(node, "variable"):
                leaf_grads[id(node.variable)] = grad
                continue
            grads = node(grad)
            if not isinstance(grads, tuple):
                grads = (grads,)
            for (next_node, _), next_grad in zip(node.next_functions, grads):
                if next_node is None or next_grad is None:
                    continue
                if next_node in received:
                    received[next_node] = received[next_node] + next_grad
                else:
                    received[next_node] = next_grad
    return [leaf_grads.get(id(leaf)) for leaf in inputs]


class BatchedMatMul(Function):
    @staticmethod
    def forward(ctx, A, B):
        ctx.save_for_backward(A, B)
        return A @ B

    @staticmethod
    def backward(ctx, grad_output):
        A, B = ctx.saved_tensors
        grad_A = grad_output @ B.T
        grad_B = (A.transpose(-1, -2) @ grad_output).sum(0)
        return grad_A, grad_B


def round_straight_through(x):
    return x + (x.round() - x).detach()


def newton_sqrt(a):
    with torch.no_grad():
        x = a.clone()
        while ((x * x - a).abs() > 1e-10 * a).any():
            x = (x + a / x) / 2
    return (x + a / x) / 2


def two_layers(x, w1, b1, w2, b2):
    h = (x @ w1 + b1).tanh()
    return h @ w2 + b2


def finetune_head(params, x, y, steps, lr):
    for name in ("w1", "b1"):
        params[name].requires_grad_(False)
    head = [params["w2"], params["b2"]]
    losses = []
    for _ in range(steps):
        prediction = two_layers(x, params["w1"], params["b1"], params["w2"], params["b2"])
        loss = ((prediction - y) ** 2).mean()
        losses.append(loss.item())
        for p in head:
            p.grad = None
        loss.backward()
        with torch.no_grad():
            for p in head:
                p -= lr * p.grad
    return losses


ANSWERS = {
    "graph_edges": graph_edges, "topo_order": topo_order,
    "count_dependencies": count_dependencies, "exp": Exp, "sigmoid": Sigmoid, "relu": ReLU,
    "mul_constant": MulConstant, "add_broadcast": AddBroadcast, "seed_func": Func,
    "tanh_saves_output": Tanh, "inplace_relu": InplaceReLU, "matmul": MatMul,
    "max_with_index": MaxWithIndex, "clip_grad_hook": clip_grad_hook,
    "pack_float16": (pack_float16, unpack_float16), "separate_gradients": separate_gradients,
    "second_derivative": second_derivative, "cube_double_backward": Cube,
    "offload_to_cpu": (pack_to_cpu, unpack_from_cpu), "linear": Linear, "mul_jvp": Mul,
    "jacobian": jacobian, "backpropagate": backpropagate, "batched_matmul": BatchedMatMul,
    "straight_through": round_straight_through, "newton_sqrt": newton_sqrt,
    "finetune_head": finetune_head,
}
ANSWERS.update(SOLUTIONS)      # the later lessons' worked solutions (tests/worked_solutions.py)
