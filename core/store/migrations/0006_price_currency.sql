-- Each of the user's quotes keeps its currency (issue 25.4): before, `catalog_price` had
-- none and every quote was shown in the `meta` currency of the moment, so changing the
-- currency relabelled 9,000 EUR as 9,000 USD. Existing quotes were given in the currency
-- in force until now (the `meta` row 'currency', else the shipped catalog's); the Python
-- step of this migration (core/store/migrations.py) fills that in, in the same
-- transaction. Always written since (core/store/prices.py).
ALTER TABLE catalog_price ADD COLUMN currency VARCHAR;
