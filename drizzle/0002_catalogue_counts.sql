CREATE TABLE "catalogue_counts" (
	"catalogue" text NOT NULL,
	"disc" text NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "catalogue_counts_catalogue_disc_pk" PRIMARY KEY("catalogue","disc")
);
