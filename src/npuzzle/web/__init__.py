"""The web front end of ``npuzzle serve``: one page (plain HTML, CSS and JavaScript modules in
``static/``, no build step, nothing fetched from other sites) and a JSON API whose records are those of
``npuzzle.present``. Needs the ``web`` extra (``pip install 'npuzzle[web]'``: Starlette and
uvicorn); importing this package alone loads neither.

>>> from importlib.resources import files
>>> names = sorted(f.name for f in files("npuzzle.web").joinpath("static").iterdir())
>>> [name for name in names if not name.endswith(".mjs")], "app.mjs" in names
(['index.html', 'style.css'], True)
"""
