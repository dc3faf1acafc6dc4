-- A barcode compared as GS1 compares codes: as its GTIN-14 (leading zeros to 14 digits), so a
-- UPC-A and the same code scanned as its EAN-13 find the one product, and one code cannot sit on
-- two products in two lengths. Two products already holding one code in two lengths stop this
-- migration at the unique index (the code is then named in its error): give one of them its
-- right code first.
ALTER TABLE "product_barcodes" ADD COLUMN "gtin" text GENERATED ALWAYS AS (lpad(barcode, 14, '0')) STORED NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "product_barcodes_gtin" ON "product_barcodes" USING btree ("gtin");