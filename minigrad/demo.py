"""A two-minute tour in the terminal: a graph, its backward order, and a saved-tensor error.

Run with `python -m minigrad.demo` (or `minigrad-tutor --tour`).  The notebooks
go further; this is what runs without Jupyter.
"""
import minigrad as torch


def describe_graph(tensor):
    """The graph behind `tensor`, one node per line, walked without recursion."""
    lines, stack, seen = [], [(tensor.grad_fn, 0)], set()
    while stack:
        node, depth = stack.pop()
        label = node.name().split("::")[-1]      # torch::autograd::AccumulateGrad
        if hasattr(node, "variable"):
            label += f"  -> .grad of the leaf {tuple(node.variable.shape)}"
        lines.append("    " * depth + label)
        if node in seen:
            continue
        seen.add(node)
        for next_node, _ in reversed(node.next_functions):
            if next_node is not None:
                stack.append((next_node, depth + 1))
    return "\n".join(lines)


def main():
    print("minigrad: PyTorch's autograd, small enough to read\n")
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    loss = (x * w).exp().sum()
    print(">>> loss = (x * w).exp().sum()")
    print(loss, "\n")
    print("The graph recorded in forward (loss.grad_fn and its next_functions):")
    print(describe_graph(loss), "\n")

    order = []
    for node in (loss.grad_fn, loss.grad_fn.next_functions[0][0],
                 loss.grad_fn.next_functions[0][0].next_functions[0][0]):
        node.register_prehook(lambda grads, name=node.name(): order.append(name))
    loss.backward()
    print("backward ran the nodes in this order:", " -> ".join(order))
    print("x.grad =", x.grad)
    print("w.grad =", w.grad, "\n")

    a = torch.tensor([0.5, 1.5], requires_grad=True)
    b = a.exp()          # exp saves its result for backward
    b.add_(1)            # ...and this changes it in place
    print(">>> b = a.exp(); b.add_(1); b.sum().backward()")
    try:
        b.sum().backward()
    except RuntimeError as error:
        print("RuntimeError:", str(error).split(". Hint")[0] + ".")
        print(str(error).split("\n")[-1])
    print("\nNext: the notebooks (lessons in English and 简体中文) - see README.md.")


if __name__ == "__main__":
    main()
