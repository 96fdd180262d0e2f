"""Autograd mechanics, "Backward Hooks execution": the order hooks fire in -- tensor
hooks, then retain_grad, then the node's pre-hooks, the node, its post-hooks -- and a
post-accumulate-grad hook on the leaf.

Source: https://pytorch.org/docs/2.13/notes/autograd.html#backward-hooks-execution
        (pytorch/pytorch, docs/source/notes/autograd.rst)
Adapted: each hook prints its name (the note describes the order in words).
"""
import torch

a = torch.tensor([1., 2.], requires_grad=True)
b = a * 3
c = b.exp()

b.register_hook(lambda g: print("tensor hook on b", g))
b.retain_grad()
b.grad_fn.register_prehook(lambda gO: print("pre-hook of", "MulBackward0", gO))
b.grad_fn.register_hook(lambda gI, gO: print("post-hook of MulBackward0", gI, gO))
c.grad_fn.register_hook(lambda gI, gO: print("post-hook of ExpBackward0", gI[0].shape))
a.register_hook(lambda g: print("tensor hook on a", g))
a.register_post_accumulate_grad_hook(lambda p: print("post accumulate, a.grad =", p.grad))

c.sum().backward()
print(b.grad)
print(a.grad)
