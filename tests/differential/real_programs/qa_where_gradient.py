"""PyTorch Forums, "How does torch.where work in autograd" (the answer's three cases):
the condition gets no gradient; the branch taken gets the gradient, the other zero --
and the well-known trap, where(x > 0, x.sqrt(), 0) giving nan at 0 anyway.

Source: https://discuss.pytorch.org/t/how-does-torch-where-work-in-autograd/222791
Adapted: the answer's cases run on x = [1, 2, 3, 4], y = [-1, -2, 3, 4]; the sqrt case
is added.
"""
import torch

x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
y = torch.tensor([-1., -2., 3., 4.], requires_grad=True)

z = torch.where(x > 2, 1, 0)
print(z, z.requires_grad)

z = torch.where(x > 2, x, 0)
print(z)
z.sum().backward()
print(x.grad)

x.grad = None
z = torch.where(x > 2, x, y)
print(z)
z.sum().backward()
print(x.grad, y.grad)

w = torch.tensor([0., 1., 4.], requires_grad=True)
torch.where(w > 0, w.sqrt(), torch.zeros(3)).sum().backward()
print(w.grad)
w.grad = None
safe = torch.where(w > 0, w, torch.ones(3))
torch.where(w > 0, safe.sqrt(), torch.zeros(3)).sum().backward()
print(w.grad)
