"""Every write (and every priced read) goes through these functions. REST views, MCP tools, A2A
skills, HTML views, admin actions and Celery tasks are thin adapters over them."""
