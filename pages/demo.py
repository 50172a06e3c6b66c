def load() -> bool:
    return False
