"""API specifications (OpenAPI 3.0/3.1, Swagger 2.0) in the workspace: loading, the model, ids and reads.

Nothing here imports YAML at import time: the loader is imported only when a spec file is read.
"""
