/** The console's entry: renders the app into the page (decision 0159). */
import { render } from 'preact';
import { App } from './app';

render(<App />, document.getElementById('app')!);
