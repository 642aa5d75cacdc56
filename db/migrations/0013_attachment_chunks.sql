CREATE TABLE `attachment_chunks` (
	`attachment_id` text NOT NULL,
	`position` integer NOT NULL,
	`bytes` blob NOT NULL,
	PRIMARY KEY(`attachment_id`, `position`),
	FOREIGN KEY (`attachment_id`) REFERENCES `attachments`(`id`) ON UPDATE no action ON DELETE cascade
);
