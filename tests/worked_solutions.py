"""Worked solutions of the exercises whose checks hold no reference of their own.

These checks take what an answer must do from minigrad's built-in ops and from
finite differences (see docs/exercises.md), so nothing in the installed package
solves them.  The tests still need a right answer to run each check on: these
are the lessons' own worked solutions, as the notebooks write them
(tests/test_lessons.py checks that the notebooks' solutions pass too).
"""
import heapq

import minigrad as torch
from minigrad.autograd import Function


# --- 01: jacobian ----------------------------------------------------------------------

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


# --- 02: backpropagate (with the lesson's topo_order) -----------------------------------

def sequence_nr(node):
    number = node._sequence_nr
    return number() if callable(number) else number


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
    ready = [(-sequence_nr(output.grad_fn), counter, output.grad_fn)]
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
                heapq.heappush(ready, (-sequence_nr(next_node), counter, next_node))
    return order


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


# --- 03: batched_matmul -----------------------------------------------------------------

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


# --- 04: seed_func, as PyTorch 2.13's documentation writes it ---------------------------

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


# --- 13: keeping things out of the graph ------------------------------------------------

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


SOLUTIONS = {"jacobian": jacobian, "backpropagate": backpropagate,
             "batched_matmul": BatchedMatMul, "seed_func": Func,
             "straight_through": round_straight_through, "newton_sqrt": newton_sqrt,
             "finetune_head": finetune_head}
