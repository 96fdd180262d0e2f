"""torch.autograd.backward and Tensor.backward with inputs=: gradients accumulated only
into the tensors named; several roots with their grad_tensors.

Source: https://pytorch.org/docs/2.13/generated/torch.autograd.backward.html
        https://pytorch.org/docs/2.13/generated/torch.Tensor.backward.html
        (pytorch/pytorch, torch/autograd/__init__.py, torch/_tensor.py)
Adapted: the documented arguments, exercised on a small graph.
"""
import torch

a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
y = (a * b).sum()
y.backward(inputs=[a], retain_graph=True)
print(a.grad, b.grad)
torch.autograd.backward(y, inputs=b)
print(a.grad, b.grad)

u = a * 2
v = b ** 2
torch.autograd.backward([u, v], grad_tensors=[torch.ones(2), torch.tensor([1., 0.])])
print(a.grad, b.grad)
try:
    torch.autograd.backward(u.sum(), inputs=[])
except RuntimeError as error:
    print("RuntimeError:", error)
