"""The store: the database, its migrations, what it keeps and the rows the faces read."""
