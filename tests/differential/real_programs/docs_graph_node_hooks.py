"""torch.autograd.graph.Node: name(), register_hook and register_prehook, from their
docstrings' examples -- a hook that doubles the gradient, removed by its handle.

Source: https://pytorch.org/docs/2.13/generated/torch.autograd.graph.Node.register_hook.html
        (pytorch/pytorch, torch/autograd/graph.py: Node.name, register_hook, register_prehook)
Adapted: the asserts print their conditions.
"""
import torch

a = torch.tensor([0., 0., 0.], requires_grad=True)
b = a.clone()
print(isinstance(b.grad_fn, torch.autograd.graph.Node))
print(b.grad_fn.name())

handle = b.grad_fn.register_hook(lambda gI, gO: (gO[0] * 2,))
b.sum().backward(retain_graph=True)
print(a.grad)
handle.remove()  # Removes the hook
a.grad = None
b.sum().backward(retain_graph=True)
print(a.grad)

a = torch.tensor([0., 0., 0.], requires_grad=True)
b = a.clone()
handle = b.grad_fn.register_prehook(lambda gI: (gI[0] * 2,))
b.sum().backward(retain_graph=True)
print(a.grad)
handle.remove()
a.grad = None
b.sum().backward(retain_graph=True)
print(a.grad)
