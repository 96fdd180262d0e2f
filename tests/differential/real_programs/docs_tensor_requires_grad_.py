"""torch.Tensor.requires_grad_, its docstring's example: weights preprocessed without
autograd, then recorded from there on.

Source: https://pytorch.org/docs/2.13/generated/torch.Tensor.requires_grad_.html
        (pytorch/pytorch, torch/_tensor_docs.py)
Adapted: `preprocess` is filled in (the docstring leaves it "some function").
"""
import torch


def preprocess(t):
    return (t - t.mean()) / t.std()


saved_weights = [0.1, 0.2, 0.3, 0.25]
loaded_weights = torch.tensor(saved_weights)
weights = preprocess(loaded_weights)  # some function
print(weights)

weights.requires_grad_()
out = weights.pow(2).sum()
out.backward()
print(weights.grad)
