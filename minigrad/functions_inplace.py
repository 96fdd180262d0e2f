"""torch.sin_(x), torch.zero_(x) ...: the in-place function forms, each the Tensor
method of the same name (x.sin_(), x.zero_()), read tensor_inplace.py for them."""


def abs_(input):
    return input.abs_()


def cos_(input):
    return input.cos_()


def exp_(input):
    return input.exp_()


def log_(input):
    return input.log_()


def neg_(input):
    return input.neg_()


def reciprocal_(input):
    return input.reciprocal_()


def relu_(input):
    return input.relu_()


def sigmoid_(input):
    return input.sigmoid_()


def sin_(input):
    return input.sin_()


def sqrt_(input):
    return input.sqrt_()


def tanh_(input):
    return input.tanh_()


def clamp_(input, min=None, max=None):
    return input.clamp_(min, max)


def clamp_min_(input, min):
    return input.clamp_min_(min)


def clamp_max_(input, max):
    return input.clamp_max_(max)


def fill_(input, value):
    return input.fill_(value)


def zero_(input):
    return input.zero_()


def detach_(input):
    return input.detach_()


__all__ = [n for n in dir() if not n.startswith("_")]
