import torch
import definitely_not_installed_pkg  # the user's own import


def make_target():
    return {}
