/** A LevelDB file that does not hold what its format promises; the directory reader names the file and reports a parse error. */
export class Corruption extends Error {
  override name = "Corruption";
}
