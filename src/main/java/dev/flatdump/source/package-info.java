/** Reading organizations from MongoDB: the strict document codec, the cursor and the rejects. */
package dev.flatdump.source;
