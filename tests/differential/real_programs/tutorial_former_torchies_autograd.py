"""PyTorch for former Torch users, "Autograd" -- x.data, x.grad, grad_fn, requires_grad_,
backward twice with retain_graph, no_grad.

Source: https://github.com/pytorch/tutorials/blob/main/beginner_source/former_torchies/autograd_tutorial_old.py
        (pytorch/tutorials, beginner_source/former_torchies/autograd_tutorial_old.py)
Adapted: nothing.
"""
import torch

x = torch.ones(2, 2, requires_grad=True)
print(x)
print(x.data)
print(x.grad)
print(x.grad_fn)  # we've created x ourselves

y = x + 2
print(y)
print(y.grad_fn)

z = y * y * 3
out = z.mean()
print(z, out)

a = torch.randn(2, 2)
a = ((a * 3) / (a - 1))
print(a.requires_grad)
a.requires_grad_(True)
print(a.requires_grad)
b = (a * a).sum()
print(b.grad_fn)

out.backward()
print(x.grad)

x = torch.ones(2, 2, requires_grad=True)
y = x + 2
y.backward(torch.ones(2, 2), retain_graph=True)
print(x.grad)

z = y * y
print(z)

gradient = torch.randn(2, 2)
y.backward(gradient)
print(x.grad)

print(x.requires_grad)
print((x ** 2).requires_grad)

with torch.no_grad():
    print((x ** 2).requires_grad)
