/**
 * Reports what an export produced against MongoDB's own storage figures: the {@link
 * dev.flatdump.report.SizeReport} model, its JSON, Markdown and HTML renderings, and the size
 * baselines measured for {@code --compare}.
 */
package dev.flatdump.report;
