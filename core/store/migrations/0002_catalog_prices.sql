-- Prices for "What it takes" (DESIGN §8).
-- catalog_item.price: the price a catalog file gives for one unit (shipped or user item).
-- catalog_price: the user's own quotes, by kind and name, kept apart from the items so a
-- quote survives re-seeding the shipped catalog and may name something the catalog does
-- not list (a stage of the scenario, a Data Guard standby). The currency is the `meta`
-- row 'currency'.
ALTER TABLE catalog_item ADD COLUMN price DOUBLE;
CREATE TABLE catalog_price (
    kind        VARCHAR   NOT NULL,
    name        VARCHAR   NOT NULL,
    name_key    VARCHAR   NOT NULL,
    price       DOUBLE    NOT NULL,
    updated_at  TIMESTAMP NOT NULL
);
