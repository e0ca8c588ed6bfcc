import { PAGE_DATA_ID } from './app/page-data.js';
import './styles.css';

/**
 * The page's entry, kept tiny: a page the server rendered is whole without script, so the app's script (React,
 * the router, the data layer) is asked for only once the first frame is painted, and neither its download nor its
 * start-up holds the first paint or the largest one. The app shell (tickets, checkout, orders) starts at once.
 */
const start = () => void import('./boot.js');
if (document.getElementById(PAGE_DATA_ID)) requestAnimationFrame(() => setTimeout(start, 0));
else start();
