"""Talking to Paperless-ngx: the REST client, its HTTP error mapping, the annotator.

Knows nothing of the index.
"""
