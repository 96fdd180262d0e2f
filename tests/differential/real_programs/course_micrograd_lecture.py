"""Neural Networks: Zero to Hero, lecture 1 ("building micrograd"): the neuron
o = tanh(x1*w1 + x2*w2 + b) checked in PyTorch -- torch.Tensor([...]).double(),
requires_grad set by assignment, .data.item() and .grad.item().

Source: https://github.com/karpathy/nn-zero-to-hero/blob/master/lectures/micrograd/micrograd_lecture_second_half_roughly.ipynb
        (karpathy/nn-zero-to-hero, lectures/micrograd)
Adapted: the notebook cell's prints only.
"""
import torch

x1 = torch.Tensor([2.0]).double()
x1.requires_grad = True
x2 = torch.Tensor([0.0]).double()
x2.requires_grad = True
w1 = torch.Tensor([-3.0]).double()
w1.requires_grad = True
w2 = torch.Tensor([1.0]).double()
w2.requires_grad = True
b = torch.Tensor([6.8813735870195432]).double()
b.requires_grad = True
n = x1*w1 + x2*w2 + b
o = torch.tanh(n)

print(o.data.item())
o.backward()

print('---')
print('x2', x2.grad.item())
print('w2', w2.grad.item())
print('x1', x1.grad.item())
print('w1', w1.grad.item())
print(o.item(), type(o.item()), o.grad_fn)
