// mjml 5 ships no type declarations; this is the part of its API the renderer calls.
declare module 'mjml' {
  interface TMjmlError {
    line: number;
    message: string;
    tagName: string;
    formattedMessage: string;
  }
  interface TMjmlOptions {
    validationLevel?: 'strict' | 'soft' | 'skip';
    keepComments?: boolean;
    minify?: boolean;
    filePath?: string;
  }
  export default function mjml2html(
    input: string,
    options?: TMjmlOptions,
  ): Promise<{ html: string; errors: TMjmlError[] }>;
}
